import { create } from 'zustand';
import type { RunResult } from '../../shared/api/runs.schema';

/** One log line of a run (a LOG event). */
export interface LogLine {
  seq: number;
  at: number;
  nodeId?: string;
  level: 'debug' | 'info' | 'warn' | 'error';
  text: string;
}

/** Lines kept per run (the oldest go first) and runs kept (the least recently written go first). */
export const MAX_LOG_LINES = 5000;
export const MAX_LOGGED_RUNS = 20;
/** Results kept for the shown run, like the host's buffer (OBS-03): older ones are dropped and it says so. */
export const MAX_RESULTS = 1000;

/**
 * Logs and results of runs as they stream (OBS-02, OBS-03). Logs live in plain arrays outside React state
 * (appending 1000 lines a second must not copy them every frame); `logsVersion` tells the Logs tab to
 * read again. Results are those of the shown run: the `runs.get` snapshot, then live NODE_RESULT events.
 */
export interface RunFeedState {
  logsVersion: number;
  /** Lines dropped per run because of MAX_LOG_LINES. */
  droppedLogs: Readonly<Record<string, number>>;
  results: { executionId: string | null; items: RunResult[]; truncated: boolean };
  appendLogs(lines: ReadonlyMap<string, LogLine[]>): void;
  showResults(executionId: string | null, items?: RunResult[], truncated?: boolean): void;
  appendResults(executionId: string, items: readonly RunResult[]): void;
}

const logs = new Map<string, LogLine[]>();

/** The lines kept for a run (read-only view; changes with `logsVersion`). */
export function logsOf(executionId: string): readonly LogLine[] {
  return logs.get(executionId) ?? [];
}

export const useRunFeed = create<RunFeedState>()((set) => ({
  logsVersion: 0,
  droppedLogs: {},
  results: { executionId: null, items: [], truncated: false },
  appendLogs: (batches) =>
    set((s) => {
      let dropped: Record<string, number> | null = null;
      for (const [executionId, lines] of batches) {
        const kept = logs.get(executionId) ?? [];
        logs.delete(executionId); // re-inserted: the map's order is least recently written first
        kept.push(...lines);
        const over = kept.length - MAX_LOG_LINES;
        if (over > 0) {
          kept.splice(0, over);
          dropped ??= { ...s.droppedLogs };
          dropped[executionId] = (dropped[executionId] ?? 0) + over;
        }
        logs.set(executionId, kept);
      }
      while (logs.size > MAX_LOGGED_RUNS) logs.delete(logs.keys().next().value!);
      return dropped ? { logsVersion: s.logsVersion + 1, droppedLogs: dropped } : { logsVersion: s.logsVersion + 1 };
    }),
  showResults: (executionId, items = [], truncated = false) => set({ results: { executionId, items: dedupe([], items), truncated } }),
  appendResults: (executionId, items) =>
    set((s) => {
      if (s.results.executionId !== executionId || items.length === 0) return {};
      const next = dedupe(s.results.items, items);
      if (next === s.results.items) return {};
      const over = next.length - MAX_RESULTS;
      return over > 0 ? { results: { executionId, items: next.slice(over), truncated: true } } : { results: { ...s.results, items: next } };
    }),
}));

/** Adds results not already there (a snapshot and live events can overlap), keeping order. */
function dedupe(current: RunResult[], incoming: readonly RunResult[]): RunResult[] {
  const seen = new Set(current.map(resultKey));
  let out: RunResult[] | null = null;
  for (const r of incoming) {
    const key = resultKey(r);
    if (seen.has(key)) continue;
    seen.add(key);
    (out ??= [...current]).push(r);
  }
  return out ?? current;
}

function resultKey(r: RunResult): string {
  return `${r.nodeId}\u0000${r.messageId}`;
}

/** Forgets every kept log line (tests). */
export function clearLogs(): void {
  logs.clear();
}
