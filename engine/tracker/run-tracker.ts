import type { NodeRunState, RunDetail, RunSummary } from '../../shared/api/runs.schema';
import { matchesFilter, type EventFilter, type StudioEvent } from '../../shared/events/events';
import { advanceStatus, isTerminal, type Status } from '../../shared/status/status';
import type { TrackerCounters, TrackerObserver } from '../observability/tracker-observer';

type RunEvent = Extract<StudioEvent, { type: 'EXECUTION_STATUS' }>;
type NodeEvent = Extract<StudioEvent, { type: 'NODE_STATUS' }>;
type ResultEvent = Extract<StudioEvent, { type: 'NODE_RESULT' }>;
type LogEvent = Extract<StudioEvent, { type: 'LOG' }>;

/** A progress snapshot of a run's history (OBS-01): a status event, always with the run's `definitionVersion`. */
export type ProgressSnapshot = RunEvent | (NodeEvent & { definitionVersion: string });

/** Defaults of the tracker settings (SPEC OBS-01, OBS-02). */
export const TRACKER_DEFAULTS = {
  /** Runs kept in history (`status-history-max-executions`, 1000). */
  maxRuns: 1000,
  /** Results kept per run for `runs.get` and the replay (1000). */
  maxResultsPerRun: 1000,
  /** Progress snapshots kept per run (`status-history-max-per-run`, 200). */
  maxSnapshotsPerRun: 200,
  /** Log lines kept per live run, and log lines waiting to be applied (10,000). */
  maxLogLines: 10_000,
  /** `yukta.tracker.cleanup-ttl`: a finished run leaves live state this long after its end (10 min). */
  cleanupTtlMs: 10 * 60_000,
  /** `yukta.tracker.max-sessions`: sessions with live state; beyond it the oldest idle one is evicted (0 = off). */
  maxSessions: 0,
} as const;

export interface RunTrackerOptions {
  maxRuns?: number;
  maxResultsPerRun?: number;
  maxSnapshotsPerRun?: number;
  maxLogLines?: number;
  cleanupTtlMs?: number;
  maxSessions?: number;
  /** The engine clock: cleanup compares its time with a run's end. */
  now?: () => number;
  /** Told of every status change the run state accepts (metrics, tracing). */
  observers?: readonly TrackerObserver[];
  /** Receives an observer's error; the batch goes on. */
  onError?: (error: unknown) => void;
}

export interface RunQuery {
  session?: string | undefined;
  workflowId?: string | undefined;
  status?: Status | undefined;
  limit: number;
}

function restoredNodeEvent(run: RunSummary, node: NodeRunState): NodeEvent {
  const event: NodeEvent = { type: 'NODE_STATUS', seq: 0, executionId: run.executionId, at: node.endedAt ?? node.startedAt ?? run.createdAt, nodeId: node.nodeId, status: node.status, counts: { ...node.counts } };
  if (node.error) event.error = node.error;
  return event;
}

/** What only a live run holds: its log lines (OBS-02). Cleaned up `cleanup-ttl` after the run ends. */
interface LiveRun {
  logs: LogEvent[];
  logsDropped: boolean;
}

interface RunState {
  summary: RunSummary;
  nodes: Map<string, NodeRunState>;
  /** The newest applied event of the run and of each node, replayed to a late subscriber. */
  runEvent: RunEvent | null;
  nodeEvents: Map<string, NodeEvent>;
  results: ResultEvent[];
  resultsTruncated: boolean;
  /**
   * The run's status events as published, oldest first; `definitionVersion` is added to node events when read
   * (no copy per event). Holds up to twice the cap and is trimmed to the newest `maxSnapshotsPerRun` at once.
   */
  snapshots: Array<RunEvent | NodeEvent>;
  live: LiveRun | null;
}

interface SessionLive {
  runs: Set<string>;
}

/**
 * The tracker (OBS-01…03). Engine events go into a queue that never drops a state event (log lines beyond
 * 10,000 waiting are dropped and counted); one consumer applies the queue in batches (a microtask after the
 * first event of a batch, or at once before any read, so readers always see every published event).
 *
 * It keeps, per run: status, nodes with counts, the newest events for late-subscriber catch-up, results
 * (bounded, `resultsTruncated`), the newest 200 progress snapshots, and while live its log lines. History
 * holds the newest 1000 runs (a run not yet ended is never dropped). Live state (sessions, logs) is cleaned
 * `cleanup-ttl` after a run ends, and `max-sessions` evicts the oldest session without a running run.
 */
export class RunTracker implements TrackerCounters {
  private readonly runs = new Map<string, RunState>();
  /** Sessions with live state, least recently active first. */
  private readonly sessions = new Map<string, SessionLive>();
  /** Finished runs still in live state, in end order (cleanup reads the head). */
  private ended: Array<{ executionId: string; at: number }> = [];
  private endedHead = 0;
  private queue: StudioEvent[] = [];
  private waitingLogs = 0;
  private scheduled = false;
  private draining = false;
  private closed = false;
  private readonly o: Required<Omit<RunTrackerOptions, 'now' | 'observers' | 'onError'>>;
  private readonly observers: readonly TrackerObserver[];
  private readonly now: () => number;
  private readonly onError: (error: unknown) => void;
  droppedLogs = 0;
  droppedState = 0;
  readonly logAppendFailed = { node: 0, run: 0 };

  constructor(options: RunTrackerOptions = {}) {
    this.o = {
      maxRuns: options.maxRuns ?? TRACKER_DEFAULTS.maxRuns,
      maxResultsPerRun: options.maxResultsPerRun ?? TRACKER_DEFAULTS.maxResultsPerRun,
      maxSnapshotsPerRun: options.maxSnapshotsPerRun ?? TRACKER_DEFAULTS.maxSnapshotsPerRun,
      maxLogLines: options.maxLogLines ?? TRACKER_DEFAULTS.maxLogLines,
      cleanupTtlMs: options.cleanupTtlMs ?? TRACKER_DEFAULTS.cleanupTtlMs,
      maxSessions: options.maxSessions ?? TRACKER_DEFAULTS.maxSessions,
    };
    this.observers = options.observers ?? [];
    this.now = options.now ?? Date.now;
    this.onError = options.onError ?? (() => undefined);
  }

  /** The bus listener: queues the event (never drops a state event). */
  readonly apply = (event: StudioEvent): void => {
    if (this.closed) {
      this.droppedState++;
      return;
    }
    if (event.type === 'LOG') {
      if (this.waitingLogs >= this.o.maxLogLines) {
        this.droppedLogs++;
        return;
      }
      this.waitingLogs++;
    }
    this.queue.push(event);
    if (!this.scheduled) {
      this.scheduled = true;
      queueMicrotask(this.drain);
    }
  };

  /** Gauge `yukta.tracker.queue.depth`. */
  get queueDepth(): number {
    return this.queue.length;
  }

  /** Applies every waiting event, in batches, then cleans live state that is due. */
  readonly drain = (): void => {
    this.scheduled = false;
    if (this.draining) return;
    this.draining = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue;
        this.queue = [];
        this.waitingLogs = 0;
        for (const event of batch) this.applyOne(event);
      }
    } finally {
      this.draining = false;
    }
    this.sweep();
  };

  /** Applies what is queued and stops tracking: later events are counted as `yukta.tracker.dropped{type=state}`. */
  close(): void {
    this.drain();
    this.closed = true;
  }

  get(executionId: string): RunDetail | null {
    this.drain();
    const run = this.runs.get(executionId);
    if (!run) return null;
    return {
      ...run.summary,
      nodes: [...run.nodes.values()].map((n) => ({ ...n, counts: { ...n.counts } })),
      results: run.results.map((r) => ({ nodeId: r.nodeId, messageId: r.messageId, payload: r.payload, ...(r.metadata ? { metadata: r.metadata } : {}) })),
      resultsTruncated: run.resultsTruncated,
    };
  }

  /** A run's status without copying its detail. */
  status(executionId: string): Status | null {
    this.drain();
    return this.runs.get(executionId)?.summary.status ?? null;
  }

  node(executionId: string, nodeId: string): NodeRunState | null {
    this.drain();
    return this.runs.get(executionId)?.nodes.get(nodeId) ?? null;
  }

  /** The newest progress snapshots of a run (at most 200), oldest first, each with `definitionVersion`. */
  history(executionId: string): ProgressSnapshot[] {
    this.drain();
    const run = this.runs.get(executionId);
    if (!run) return [];
    const version = run.summary.definitionVersion;
    const kept = run.snapshots;
    const out: ProgressSnapshot[] = [];
    for (let i = Math.max(0, kept.length - this.o.maxSnapshotsPerRun); i < kept.length; i++) {
      const e = kept[i]!;
      out.push(e.type === 'NODE_STATUS' ? { ...e, definitionVersion: version } : e);
    }
    return out;
  }

  /** A live run's log lines (at most 10,000, oldest dropped); empty once the run left live state. */
  logs(executionId: string): LogEvent[] {
    this.drain();
    return [...(this.runs.get(executionId)?.live?.logs ?? [])];
  }

  /** Sessions holding live state, least recently active first. */
  liveSessions(): string[] {
    this.drain();
    return [...this.sessions.keys()];
  }

  /** True while a run is in live state (not ended, or ended less than `cleanup-ttl` ago). */
  isLive(executionId: string): boolean {
    this.drain();
    return this.runs.get(executionId)?.live != null;
  }

  /**
   * Late-subscriber catch-up (OBS-01): for a subscription filtered to one run, the run's current state as
   * events — its newest run event (with every node id), each node's newest status, kept results and live
   * log lines — in feed order, filtered like the subscription. A finished run's end event says `truncated`
   * when the replay dropped results or log lines (the live stream itself never does). Empty without a run filter.
   */
  catchUp(filter: EventFilter): StudioEvent[] {
    if (!filter.executionId) return [];
    this.drain();
    const run = this.runs.get(filter.executionId);
    if (!run) return [];
    const s = run.summary;
    // A run restored from the durable log (DUR-01) has no events of this process: its state is rebuilt from the summary.
    const head: RunEvent = run.runEvent
      ? { ...run.runEvent, status: s.status, nodeIds: [...run.nodes.keys()] }
      : { type: 'EXECUTION_STATUS', seq: 0, executionId: s.executionId, at: s.endedAt ?? s.startedAt ?? s.createdAt, session: s.session, workflowId: s.workflowId, definitionVersion: s.definitionVersion, status: s.status, nodeIds: [...run.nodes.keys()] };
    if (s.error) head.error = s.error;
    if (isTerminal(s.status) && (run.resultsTruncated || run.live?.logsDropped)) head.truncated = true;
    const nodes: NodeEvent[] = [];
    for (const node of run.nodes.values()) {
      const latest = run.nodeEvents.get(node.nodeId);
      if (latest) nodes.push(latest);
      else if (!run.runEvent) nodes.push(restoredNodeEvent(s, node));
    }
    const rest: StudioEvent[] = [...nodes, ...run.results, ...(run.live?.logs ?? [])];
    rest.sort((a, b) => a.seq - b.seq);
    return [head, ...rest].filter((e) => matchesFilter(e, filter));
  }

  /** Puts runs read back from the execution log into history (DUR-01 boot recovery), oldest first. */
  restore(runs: readonly RunDetail[]): void {
    this.drain();
    for (const run of runs) {
      if (this.runs.has(run.executionId)) continue;
      const { nodes, results, resultsTruncated, ...summary } = run;
      this.runs.set(run.executionId, {
        summary,
        nodes: new Map(nodes.map((n) => [n.nodeId, n])),
        runEvent: null,
        nodeEvents: new Map(),
        results: results.map((r) => ({ type: 'NODE_RESULT', seq: 0, executionId: run.executionId, at: summary.endedAt ?? summary.createdAt, ...r })),
        resultsTruncated,
        snapshots: [],
        live: null,
      });
    }
    this.evict();
  }

  /** Newest first. */
  list(query: RunQuery): RunSummary[] {
    this.drain();
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

  private applyOne(event: StudioEvent): void {
    switch (event.type) {
      case 'EXECUTION_STATUS':
        return this.applyRunStatus(event);
      case 'NODE_STATUS':
        return this.applyNodeStatus(event);
      case 'NODE_RESULT':
        return this.applyResult(event);
      case 'LOG':
        return this.applyLog(event);
      case 'CONTROL':
      case 'APPROVAL':
        return;
    }
  }

  private applyRunStatus(event: RunEvent): void {
    let run = this.runs.get(event.executionId);
    if (!run) {
      run = {
        summary: { executionId: event.executionId, session: event.session, workflowId: event.workflowId, definitionVersion: event.definitionVersion, status: 'PENDING', createdAt: event.at },
        nodes: new Map((event.nodeIds ?? []).map((nodeId) => [nodeId, { nodeId, status: 'PENDING', counts: { received: 0, emitted: 0 } }])),
        runEvent: null,
        nodeEvents: new Map(),
        results: [],
        resultsTruncated: false,
        snapshots: [],
        live: { logs: [], logsDropped: false },
      };
      this.runs.set(event.executionId, run);
      this.enterSession(event.session, event.executionId);
      this.evict();
    }
    this.snapshot(run, event);
    const s = run.summary;
    const before = s.status;
    s.status = advanceStatus(s.status, event.status);
    if (s.status === before) return;
    run.runEvent = event;
    if (s.status === 'RUNNING') s.startedAt = event.at;
    if (isTerminal(s.status)) {
      s.endedAt = event.at;
      if (event.error) s.error = event.error;
      if (run.live) this.ended.push({ executionId: s.executionId, at: event.at });
    }
    for (const o of this.observers) {
      try {
        o.runChanged?.(s, before);
      } catch (error) {
        this.onError(error);
      }
    }
  }

  private applyNodeStatus(event: NodeEvent): void {
    const run = this.runs.get(event.executionId);
    if (!run) return;
    this.snapshot(run, event);
    let node = run.nodes.get(event.nodeId);
    if (!node) {
      node = { nodeId: event.nodeId, status: 'PENDING', counts: { received: 0, emitted: 0 } };
      run.nodes.set(event.nodeId, node);
    }
    const before = node.status;
    node.status = advanceStatus(node.status, event.status);
    // A step back is ignored, but its data is still merged (ENG-06).
    node.counts = { ...event.counts };
    run.nodeEvents.set(event.nodeId, node.status === event.status ? event : { ...event, status: node.status });
    if (node.status === before) return;
    if (node.status === 'RUNNING') node.startedAt = event.at;
    if (isTerminal(node.status)) {
      node.endedAt = event.at;
      if (event.error) node.error = event.error;
    }
    for (const o of this.observers) {
      try {
        o.nodeChanged?.(run.summary, node, before);
      } catch (error) {
        this.onError(error);
      }
    }
  }

  private applyResult(event: ResultEvent): void {
    const run = this.runs.get(event.executionId);
    if (!run) return;
    run.results.push(event);
    if (run.results.length > this.o.maxResultsPerRun) {
      run.results.shift();
      run.resultsTruncated = true;
    }
  }

  /** Best effort (OBS-02): a line that cannot be stored is counted, never in the way of a status update. */
  private applyLog(event: LogEvent): void {
    try {
      const live = this.runs.get(event.executionId)?.live;
      if (!live) return;
      live.logs.push(event);
      if (live.logs.length > this.o.maxLogLines) {
        live.logs.shift();
        live.logsDropped = true;
        this.droppedLogs++;
      }
    } catch (error) {
      if (event.nodeId === undefined) this.logAppendFailed.run++;
      else this.logAppendFailed.node++;
      this.onError(error);
    }
  }

  /** Keeps the event; beyond twice the cap the oldest are dropped at once (amortised, no shift per event). */
  private snapshot(run: RunState, event: RunEvent | NodeEvent): void {
    const kept = run.snapshots;
    kept.push(event);
    if (kept.length >= 2 * this.o.maxSnapshotsPerRun) kept.splice(0, kept.length - this.o.maxSnapshotsPerRun);
  }

  /** Moves the session to the most recently active end; evicts beyond `max-sessions`. */
  private enterSession(session: string, executionId: string): void {
    const live = this.sessions.get(session) ?? { runs: new Set<string>() };
    this.sessions.delete(session);
    this.sessions.set(session, live);
    live.runs.add(executionId);
    if (this.o.maxSessions <= 0 || this.sessions.size <= this.o.maxSessions) return;
    for (const [name, s] of this.sessions) {
      if (this.sessions.size <= this.o.maxSessions) break;
      if (name === session || [...s.runs].some((id) => !isTerminal(this.runs.get(id)?.summary.status ?? 'SUCCESS'))) continue;
      for (const id of s.runs) this.leaveLive(id);
      this.sessions.delete(name);
    }
  }

  /** Cleans live state of runs that ended `cleanup-ttl` ago or more; they stay in history. */
  private sweep(): void {
    if (this.endedHead === this.ended.length) return;
    const due = this.now() - this.o.cleanupTtlMs;
    while (this.endedHead < this.ended.length && this.ended[this.endedHead]!.at <= due) {
      const { executionId } = this.ended[this.endedHead++]!;
      const run = this.runs.get(executionId);
      if (!run?.live) continue;
      this.leaveLive(executionId);
      const session = this.sessions.get(run.summary.session);
      session?.runs.delete(executionId);
      if (session && session.runs.size === 0) this.sessions.delete(run.summary.session);
    }
    if (this.endedHead > 1024 && this.endedHead * 2 > this.ended.length) {
      this.ended = this.ended.slice(this.endedHead);
      this.endedHead = 0;
    }
  }

  private leaveLive(executionId: string): void {
    const run = this.runs.get(executionId);
    if (run) run.live = null;
  }

  /** Drops the oldest finished runs beyond the cap; a live run is never dropped. */
  private evict(): void {
    if (this.runs.size <= this.o.maxRuns) return;
    for (const [id, run] of this.runs) {
      if (this.runs.size <= this.o.maxRuns) break;
      if (isTerminal(run.summary.status)) {
        this.runs.delete(id);
        const session = this.sessions.get(run.summary.session);
        session?.runs.delete(id);
        if (session && session.runs.size === 0) this.sessions.delete(run.summary.session);
      }
    }
  }
}
