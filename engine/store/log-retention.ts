import { PSEUDO_RUNS, SCHEDULER_RUN } from '../../shared/api/control.schema';
import { RUN_END_TYPES, type ExecutionLogEntry, type LogRetentionOptions } from './execution-log';

/** Entries of the scheduler's pseudo run kept besides its newest recorded limits. */
export const SCHEDULER_ENTRIES_KEPT = 200;

interface RunGroup {
  first: number;
  started: boolean;
  ended: boolean;
}

/**
 * Which runs survive a trim (DUR-01): every run without an end (it started and never finished: boot
 * recovery needs it), the newest `retainedRuns` of the others (by first entry), the scheduler's
 * pseudo run (its newest recorded limits and its newest entries) and the settings pseudo run (CFG-01: its
 * changes are rare and their audit is kept). Returns the run ids to drop.
 */
export function runsToDrop(entries: readonly ExecutionLogEntry[], options: LogRetentionOptions): Set<string> {
  const groups = new Map<string, RunGroup>();
  entries.forEach((e, i) => {
    let g = groups.get(e.runId);
    if (!g) groups.set(e.runId, (g = { first: i, started: false, ended: false }));
    if (e.type === 'RUN_STARTED') g.started = true;
    if (RUN_END_TYPES.has(e.type)) g.ended = true;
  });
  const closed: string[] = [];
  for (const [runId, g] of groups) {
    if (PSEUDO_RUNS.has(runId) || (g.started && !g.ended)) continue;
    closed.push(runId);
  }
  // Groups are in order of first appearance already (Map keeps insertion order).
  return new Set(closed.slice(0, Math.max(0, closed.length - options.retainedRuns)));
}

/** The entries kept by a trim, in their order (see `runsToDrop`). */
export function retainEntries(entries: readonly ExecutionLogEntry[], options: LogRetentionOptions): ExecutionLogEntry[] {
  const drop = runsToDrop(entries, options);
  const schedulerKeep = schedulerEntriesKept(entries);
  return entries.filter((e, i) => (e.runId === SCHEDULER_RUN ? schedulerKeep.has(i) : !drop.has(e.runId)));
}

/** Indexes of the scheduler entries kept: the newest with recorded limits (`data`) and the newest others. */
function schedulerEntriesKept(entries: readonly ExecutionLogEntry[]): Set<number> {
  const kept = new Set<number>();
  let limitsKept = false;
  for (let i = entries.length - 1; i >= 0; i--) {
    const e = entries[i]!;
    if (e.runId !== SCHEDULER_RUN) continue;
    if (!limitsKept && e.data !== undefined) {
      kept.add(i);
      limitsKept = true;
    } else if (kept.size < SCHEDULER_ENTRIES_KEPT) kept.add(i);
  }
  return kept;
}

/** One run as a database sums it up (`GROUP BY run_id`, in order of its first entry). */
export interface RunSummary {
  runId: string;
  started: boolean;
  ended: boolean;
}

/** `runsToDrop` over runs summed up by the database instead of every row read into memory. */
export function summaryRunsToDrop(runs: readonly RunSummary[], options: LogRetentionOptions): Set<string> {
  // Each run as the entries runsToDrop needs: a start if it has one, an end if it has one, else one entry.
  const entries: ExecutionLogEntry[] = [];
  for (const r of runs) {
    entries.push({ runId: r.runId, type: r.started ? 'RUN_STARTED' : 'NODE_FINISHED', status: '', actor: '', at: 0 });
    if (r.ended) entries.push({ runId: r.runId, type: 'RUN_FINISHED', status: '', actor: '', at: 0 });
  }
  return runsToDrop(entries, options);
}
