import type { NodeRunState, RunDetail, RunSummary } from '../../shared/api/runs.schema';
import { assertNever } from '../../shared/assert-never';
import { matchesFilter, type EventFilter, type StudioEvent } from '../../shared/events/events';
import { isTerminal, type Status } from '../../shared/status/status';
import type { TrackerCounters, TrackerObserver } from '../observability/tracker-observer';
import { inMicrotask } from '../runtime/microtask';
import { NodeLayout, NodeLayouts } from './node-layout';
import { NodeView, RunRecord, type LogEvent, type NodeChange, type ProgressSnapshot, type RunEvent } from './run-record';
import type { NodeEvent } from './status-rows';

export type { ProgressSnapshot };

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
  private readonly runs = new Map<string, RunRecord>();
  private readonly layouts = new NodeLayouts();
  /** Observers see node changes through this one object (OBS-04/05 read it in passing). */
  private readonly nodeChange: NodeChange = { index: 0, before: 'PENDING' };
  private readonly nodeView = new NodeView();
  /** Sessions with live state, least recently active first. */
  private readonly sessions = new Map<string, SessionLive>();
  /** The session last moved to the end of `sessions` (the end while it is still there). */
  private newestSession: string | null = null;
  /** Finished runs still in live state, in end order (cleanup reads the head). */
  private endedIds: string[] = [];
  private endedAt: number[] = [];
  private endedHead = 0;
  private endedSinceSweep = false;
  /** Events waiting, in `queue[0 … queued)`; the array keeps its room between batches (no allocation per batch). */
  private queue: Array<StudioEvent | null> = [];
  private queued = 0;
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
    this.queue[this.queued++] = event;
    if (!this.scheduled) {
      this.scheduled = true;
      inMicrotask(this.drain);
    }
  };

  /** Gauge `yukta.tracker.queue.depth`. */
  get queueDepth(): number {
    return this.queued;
  }

  /** Applies every waiting event, in batches, then cleans live state that is due. */
  readonly drain = (): void => {
    this.scheduled = false;
    if (this.draining) return;
    this.draining = true;
    let next = 0;
    this.waitingLogs = 0; // the lines queued now are being applied, not waiting
    try {
      // Events queued while a batch is applied join it (the loop reads `queued` again).
      while (next < this.queued) {
        const event = this.queue[next]!;
        this.queue[next++] = null;
        this.applyOne(event);
      }
    } finally {
      // What a throwing event left is applied by the next drain, in order.
      this.queue.copyWithin(0, next, this.queued);
      this.queued -= next;
      if (this.queued === 0 && this.queue.length > 65_536) this.queue = []; // a burst's room is given back
      this.draining = false;
    }
    // Live state is due for cleaning only once some run has ended since (a clock read per drain would cost more).
    if (this.endedSinceSweep) this.sweep();
  };

  /** Applies what waits and cleans live state that is due: for the reads of live state. */
  private drainLive(): void {
    this.drain();
    this.sweep();
  }

  /** Applies what is queued and stops tracking: later events are counted as `yukta.tracker.dropped{type=state}`. */
  close(): void {
    this.drain();
    this.closed = true;
  }

  get(executionId: string): RunDetail | null {
    this.drain();
    return this.runs.get(executionId)?.detail() ?? null;
  }

  /** A run's status without copying its detail. */
  status(executionId: string): Status | null {
    this.drain();
    return this.runs.get(executionId)?.summary.status ?? null;
  }

  node(executionId: string, nodeId: string): NodeRunState | null {
    this.drain();
    const run = this.runs.get(executionId);
    const index = run ? run.nodeIndex(nodeId) : -1;
    return index < 0 ? null : run!.nodeState(index);
  }

  /** The newest progress snapshots of a run (at most 200), oldest first, each with `definitionVersion`. */
  history(executionId: string): ProgressSnapshot[] {
    this.drain();
    return this.runs.get(executionId)?.history(this.o.maxSnapshotsPerRun) ?? [];
  }

  /** A live run's log lines (at most 10,000, oldest dropped); empty once the run left live state. */
  logs(executionId: string): LogEvent[] {
    this.drainLive();
    return [...(this.runs.get(executionId)?.liveLogs() ?? [])];
  }

  /** Sessions holding live state, least recently active first. */
  liveSessions(): string[] {
    this.drainLive();
    return [...this.sessions.keys()];
  }

  /** True while a run is in live state (not ended, or ended less than `cleanup-ttl` ago). */
  isLive(executionId: string): boolean {
    this.drainLive();
    return this.runs.get(executionId)?.isLive ?? false;
  }

  /**
   * Late-subscriber catch-up (OBS-01): for a subscription filtered to one run, the run's current state as
   * events — its newest run event (with every node id), each node's newest status, kept results and live
   * log lines — in feed order, filtered like the subscription. A finished run's end event says `truncated`
   * when the replay dropped results or log lines (the live stream itself never does). Empty without a run filter.
   */
  catchUp(filter: EventFilter): StudioEvent[] {
    if (!filter.executionId) return [];
    this.drainLive();
    return (
      this.runs
        .get(filter.executionId)
        ?.catchUp()
        .filter((e) => matchesFilter(e, filter)) ?? []
    );
  }

  /** Puts runs read back from the execution log into history (DUR-01 boot recovery), oldest first. */
  restore(runs: readonly RunDetail[]): void {
    this.drain();
    for (const run of runs) {
      if (this.runs.has(run.executionId)) continue;
      this.runs.set(run.executionId, RunRecord.restored(run, new NodeLayout(run.nodes.map((n) => n.nodeId))));
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
        return this.runs.get(event.executionId)?.addResult(event, this.o.maxResultsPerRun);
      case 'LOG':
        return this.applyLog(event);
      case 'CONTROL':
      case 'APPROVAL':
        return;
      default:
        return assertNever(event, 'event');
    }
  }

  private applyRunStatus(event: RunEvent): void {
    let run = this.runs.get(event.executionId);
    if (!run) {
      run = RunRecord.started(event, this.layouts.of(event.nodeIds));
      this.runs.set(event.executionId, run);
      this.enterSession(event.session, event.executionId);
      this.evict();
    }
    const before = run.applyRun(event, this.o.maxSnapshotsPerRun);
    if (before === null) return;
    const s = run.summary;
    if (isTerminal(s.status) && run.isLive) {
      this.endedIds.push(s.executionId);
      this.endedAt.push(event.at);
      this.endedSinceSweep = true;
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
    const change = this.nodeChange;
    if (!run.applyNode(event, this.o.maxSnapshotsPerRun, change) || this.observers.length === 0) return;
    const node = run.viewNode(change.index, this.nodeView);
    for (const o of this.observers) {
      try {
        o.nodeChanged?.(run.summary, node, change.before);
      } catch (error) {
        this.onError(error);
      }
    }
  }

  /** Best effort (OBS-02): a line that cannot be stored is counted, never in the way of a status update. */
  private applyLog(event: LogEvent): void {
    try {
      const run = this.runs.get(event.executionId);
      if (run && !run.addLog(event, this.o.maxLogLines)) this.droppedLogs++;
    } catch (error) {
      if (event.nodeId === undefined) this.logAppendFailed.run++;
      else this.logAppendFailed.node++;
      this.onError(error);
    }
  }

  /** Moves the session to the most recently active end; evicts beyond `max-sessions`. */
  private enterSession(session: string, executionId: string): void {
    let live = this.sessions.get(session);
    // Moved to the end only when another session is there: a map that deletes and sets its one key at every
    // run makes a new table each time, and the scavenger copies it.
    if (live === undefined || this.newestSession !== session) {
      live ??= { runs: new Set<string>() };
      this.sessions.delete(session);
      this.sessions.set(session, live);
      this.newestSession = session;
    }
    live.runs.add(executionId);
    if (this.o.maxSessions <= 0 || this.sessions.size <= this.o.maxSessions) return;
    for (const [name, s] of this.sessions) {
      if (this.sessions.size <= this.o.maxSessions) break;
      if (name === session || [...s.runs].some((id) => !isTerminal(this.runs.get(id)?.summary.status ?? 'SUCCESS'))) continue;
      for (const id of s.runs) this.runs.get(id)?.leaveLive();
      this.sessions.delete(name);
    }
  }

  /** Cleans live state of runs that ended `cleanup-ttl` ago or more; they stay in history. */
  private sweep(): void {
    this.endedSinceSweep = false;
    if (this.endedHead === this.endedIds.length) return;
    const due = this.now() - this.o.cleanupTtlMs;
    while (this.endedHead < this.endedIds.length && this.endedAt[this.endedHead]! <= due) {
      const executionId = this.endedIds[this.endedHead++]!;
      const run = this.runs.get(executionId);
      if (!run?.isLive) continue;
      run.leaveLive();
      const session = this.sessions.get(run.summary.session);
      session?.runs.delete(executionId);
      if (session && session.runs.size === 0) this.sessions.delete(run.summary.session);
    }
    if (this.endedHead > 1024 && this.endedHead * 2 > this.endedIds.length) {
      this.endedIds = this.endedIds.slice(this.endedHead);
      this.endedAt = this.endedAt.slice(this.endedHead);
      this.endedHead = 0;
    }
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
