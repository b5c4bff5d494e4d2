import type { RunResult } from '../../shared/api/runs.schema';
import { advanceStatus, type Status } from '../../shared/status/status';
import type { LiveNodeState, LiveNodeUpdate } from './live-store';

type Merge = (current: Readonly<Record<string, LiveNodeState>>, updates: readonly LiveNodeUpdate[]) => Readonly<Record<string, LiveNodeState>>;

/** What the studio heard of a run before it was shown: its merged node states, status and results. */
export interface RecentRun {
  nodes: Readonly<Record<string, LiveNodeState>>;
  status: Status | null;
  results: RunResult[];
  resultsTruncated: boolean;
}

/** Runs kept (the oldest announced goes first) and results kept per run (like the shown run's, OBS-03). */
const MAX_RUNS = 8;
const MAX_RESULTS = 1000;

/**
 * The events of runs of the open workflow that are not shown yet. A run just started from the canvas is
 * announced, and may run to its end, before `runs.start` answers with its id; the studio shows it from
 * these events instead of reading the run again (`runs.get`). Merged as they come (one entry per node),
 * so a busy run costs no more than its node count.
 */
export class RecentRuns {
  private readonly runs = new Map<string, RecentRun>();

  /** `merge`: the live store's forward-only merge of node states (passed in: the store holds this buffer). */
  constructor(private readonly merge: Merge) {}

  /** A run of the open workflow was announced (its first event, with every node id PENDING). */
  announce(executionId: string, nodeIds: readonly string[]): void {
    if (this.runs.has(executionId)) return;
    const pending = nodeIds.map((nodeId) => ({ nodeId, status: 'PENDING' as const, counts: { received: 0, emitted: 0 } }));
    this.runs.set(executionId, { nodes: this.merge({}, pending), status: null, results: [], resultsTruncated: false });
    if (this.runs.size > MAX_RUNS) this.runs.delete(this.runs.keys().next().value!);
  }

  has(executionId: string): boolean {
    return this.runs.has(executionId);
  }

  add(executionId: string, change: { nodes: readonly LiveNodeUpdate[]; status: Status | null; results: readonly RunResult[] }): void {
    const run = this.runs.get(executionId);
    if (!run) return;
    if (change.nodes.length) run.nodes = this.merge(run.nodes, change.nodes);
    if (change.status !== null) run.status = run.status === null ? change.status : advanceStatus(run.status, change.status);
    if (change.results.length) {
      run.results.push(...change.results);
      const over = run.results.length - MAX_RESULTS;
      if (over > 0) {
        run.results.splice(0, over);
        run.resultsTruncated = true;
      }
    }
  }

  clear(): void {
    this.runs.clear();
  }

  /** What was heard of the run (it is forgotten here: from now on it is the shown run), or null. */
  take(executionId: string): RecentRun | null {
    const run = this.runs.get(executionId) ?? null;
    this.runs.delete(executionId);
    return run;
  }
}

/** The node states of a recent run as updates for the live store. */
export function updatesOf(nodes: Readonly<Record<string, LiveNodeState>>): LiveNodeUpdate[] {
  return Object.entries(nodes).map(([nodeId, n]) => ({ ...n, nodeId, attempt: n.attempt ?? null }));
}
