import type { NodeRunState, RunDetail, RunResult, RunSummary } from '../../shared/api/runs.schema';
import type { StudioEvent } from '../../shared/events/events';
import { advanceStatus, isTerminal, type Status } from '../../shared/status/status';

interface RunState {
  summary: RunSummary;
  nodes: Map<string, NodeRunState>;
  results: RunResult[];
  resultsTruncated: boolean;
}

export interface RunTrackerOptions {
  /** Finished runs kept in memory, newest first. */
  maxRuns: number;
  /** Results kept per run; older ones are dropped and the run says `resultsTruncated`. */
  maxResultsPerRun: number;
}

export interface RunQuery {
  session?: string | undefined;
  workflowId?: string | undefined;
  status?: Status | undefined;
  limit: number;
}

/** Applies engine events to per-run state (OBS-01); `runs.get` and `runs.list` read it. */
export class RunTracker {
  private readonly runs = new Map<string, RunState>();

  constructor(private readonly options: RunTrackerOptions) {}

  readonly apply = (event: StudioEvent): void => {
    switch (event.type) {
      case 'EXECUTION_STATUS':
        return this.applyRunStatus(event);
      case 'NODE_STATUS':
        return this.applyNodeStatus(event);
      case 'NODE_RESULT':
        return this.applyResult(event);
      case 'LOG':
      case 'CONTROL':
      case 'APPROVAL':
        return;
    }
  };

  get(executionId: string): RunDetail | null {
    const run = this.runs.get(executionId);
    if (!run) return null;
    return {
      ...run.summary,
      nodes: [...run.nodes.values()].map((n) => ({ ...n, counts: { ...n.counts } })),
      results: [...run.results],
      resultsTruncated: run.resultsTruncated,
    };
  }

  /** Puts runs read back from the execution log into history (DUR-01 boot recovery), oldest first. */
  restore(runs: readonly RunDetail[]): void {
    for (const run of runs) {
      if (this.runs.has(run.executionId)) continue;
      const { nodes, results, resultsTruncated, ...summary } = run;
      this.runs.set(run.executionId, { summary, nodes: new Map(nodes.map((n) => [n.nodeId, n])), results: [...results], resultsTruncated });
    }
    this.evict();
  }

  /** Newest first. */
  list(query: RunQuery): RunSummary[] {
    const out: RunSummary[] = [];
    const all = [...this.runs.values()];
    for (let i = all.length - 1; i >= 0 && out.length < query.limit; i--) {
      const s = all[i]!.summary;
      if (query.session !== undefined && s.session !== query.session) continue;
      if (query.workflowId !== undefined && s.workflowId !== query.workflowId) continue;
      if (query.status !== undefined && s.status !== query.status) continue;
      out.push({ ...s });
    }
    return out;
  }

  private applyRunStatus(event: Extract<StudioEvent, { type: 'EXECUTION_STATUS' }>): void {
    let run = this.runs.get(event.executionId);
    if (!run) {
      run = {
        summary: { executionId: event.executionId, session: event.session, workflowId: event.workflowId, definitionVersion: event.definitionVersion, status: 'PENDING', createdAt: event.at },
        nodes: new Map((event.nodeIds ?? []).map((nodeId) => [nodeId, { nodeId, status: 'PENDING', counts: { received: 0, emitted: 0 } }])),
        results: [],
        resultsTruncated: false,
      };
      this.runs.set(event.executionId, run);
      this.evict();
    }
    const s = run.summary;
    const before = s.status;
    s.status = advanceStatus(s.status, event.status);
    if (s.status === before) return;
    if (s.status === 'RUNNING') s.startedAt = event.at;
    if (isTerminal(s.status)) {
      s.endedAt = event.at;
      if (event.error) s.error = event.error;
    }
  }

  private applyNodeStatus(event: Extract<StudioEvent, { type: 'NODE_STATUS' }>): void {
    const run = this.runs.get(event.executionId);
    if (!run) return;
    let node = run.nodes.get(event.nodeId);
    if (!node) {
      node = { nodeId: event.nodeId, status: 'PENDING', counts: { received: 0, emitted: 0 } };
      run.nodes.set(event.nodeId, node);
    }
    const before = node.status;
    node.status = advanceStatus(node.status, event.status);
    // A step back is ignored, but its data is still merged (ENG-06).
    node.counts = { ...event.counts };
    if (node.status === before) return;
    if (node.status === 'RUNNING') node.startedAt = event.at;
    if (isTerminal(node.status)) {
      node.endedAt = event.at;
      if (event.error) node.error = event.error;
    }
  }

  private applyResult(event: Extract<StudioEvent, { type: 'NODE_RESULT' }>): void {
    const run = this.runs.get(event.executionId);
    if (!run) return;
    run.results.push({ nodeId: event.nodeId, messageId: event.messageId, payload: event.payload });
    if (run.results.length > this.options.maxResultsPerRun) {
      run.results.shift();
      run.resultsTruncated = true;
    }
  }

  /** Drops the oldest finished runs beyond the cap; a live run is never dropped. */
  private evict(): void {
    if (this.runs.size <= this.options.maxRuns) return;
    for (const [id, run] of this.runs) {
      if (this.runs.size <= this.options.maxRuns) break;
      if (isTerminal(run.summary.status)) this.runs.delete(id);
    }
  }
}
