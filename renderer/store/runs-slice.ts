import type { StateCreator } from 'zustand';
import type { RunSummary } from '../../shared/api/runs.schema';
import type { ErrorInfo } from '../../shared/events/events';
import { advanceStatus, isTerminal, type Status } from '../../shared/status/status';
import type { StudioState } from './studio-store';

/** An execution status change, as the runs list needs it. */
export interface RunStatusChange {
  executionId: string;
  session: string;
  workflowId: string;
  definitionVersion: string;
  status: Status;
  at: number;
  error?: ErrorInfo;
}

/** Runs of the open workflow, newest first, and the one shown on the canvas. */
export interface RunsSlice {
  runs: RunSummary[];
  selectedRunId: string | null;
  /** Merges a fetched list into the known runs (a refresh can race with live events). */
  setRuns(runs: RunSummary[]): void;
  /** Replaces the list, e.g. when another workflow is opened. */
  replaceRuns(runs: RunSummary[]): void;
  upsertRun(run: RunSummary): void;
  applyRunStatuses(changes: readonly RunStatusChange[]): void;
  selectRun(executionId: string | null): void;
}

export const createRunsSlice: StateCreator<StudioState, [], [], RunsSlice> = (set) => ({
  runs: [],
  selectedRunId: null,
  setRuns: (runs) => set((s) => ({ runs: sortNewestFirst(mergeRunLists(s.runs, runs)) })),
  replaceRuns: (runs) => set({ runs: sortNewestFirst([...runs]), selectedRunId: null }),
  upsertRun: (run) => set((s) => ({ runs: sortNewestFirst(mergeRunLists(s.runs, [run])) })),
  applyRunStatuses: (changes) =>
    set((s) => {
      const runs = applyStatusChanges(s.runs, changes, s.session, s.storedWorkflowId);
      return runs === s.runs ? {} : { runs };
    }),
  selectRun: (executionId) => set({ selectedRunId: executionId }),
});

/** Forward-only merge of two lists of the same runs (a list refresh can race with live events). */
export function mergeRunLists(current: readonly RunSummary[], incoming: readonly RunSummary[]): RunSummary[] {
  const byId = new Map(current.map((r) => [r.executionId, r]));
  for (const run of incoming) {
    const known = byId.get(run.executionId);
    byId.set(run.executionId, known ? mergeRun(known, run) : run);
  }
  return [...byId.values()];
}

function mergeRun(a: RunSummary, b: RunSummary): RunSummary {
  const status = advanceStatus(a.status, b.status);
  return { ...a, ...b, status, startedAt: b.startedAt ?? a.startedAt, endedAt: b.endedAt ?? a.endedAt };
}

export function sortNewestFirst(runs: RunSummary[]): RunSummary[] {
  return runs.sort((a, b) => b.createdAt - a.createdAt || b.executionId.localeCompare(a.executionId));
}

/** Applies EXECUTION_STATUS changes; unknown runs of the open workflow are added (e.g. started elsewhere). */
export function applyStatusChanges(runs: RunSummary[], changes: readonly RunStatusChange[], session: string, workflowId: string | null): RunSummary[] {
  if (changes.length === 0) return runs;
  const byId = new Map(runs.map((r) => [r.executionId, r]));
  let touched = false;
  for (const c of changes) {
    const known = byId.get(c.executionId);
    if (!known) {
      if (c.session !== session || c.workflowId !== workflowId) continue;
      byId.set(
        c.executionId,
        withTimes(
          {
            executionId: c.executionId,
            session: c.session,
            workflowId: c.workflowId,
            definitionVersion: c.definitionVersion,
            status: c.status,
            createdAt: c.at,
          },
          c,
        ),
      );
      touched = true;
      continue;
    }
    const next = withTimes({ ...known, status: advanceStatus(known.status, c.status) }, c);
    if (next.status === known.status && next.startedAt === known.startedAt && next.endedAt === known.endedAt && next.error === known.error) continue;
    byId.set(c.executionId, next);
    touched = true;
  }
  return touched ? sortNewestFirst([...byId.values()]) : runs;
}

function withTimes(run: RunSummary, change: RunStatusChange): RunSummary {
  const next = { ...run };
  if (next.startedAt === undefined && (run.status === 'RUNNING' || isTerminal(run.status))) next.startedAt = change.at;
  if (next.endedAt === undefined && isTerminal(run.status)) next.endedAt = change.at;
  if (next.error === undefined && change.error !== undefined) next.error = change.error;
  return next;
}
