import type { NodeRunState, RunDetail, RunSummary } from '../../shared/api/runs.schema';
import type { ErrorInfo, StudioEvent } from '../../shared/events/events';
import { advanceStatus, isTerminal, type Status } from '../../shared/status/status';
import type { NodeLayout } from './node-layout';
import { countsAt, EVENT_FIELDS, readEvent, statusAt, statusCode, writeCounts, writeEvent, type EventExtras, type NodeEvent, type Rows } from './status-rows';

export type RunEvent = Extract<StudioEvent, { type: 'EXECUTION_STATUS' }>;
export type ResultEvent = Extract<StudioEvent, { type: 'NODE_RESULT' }>;
export type LogEvent = Extract<StudioEvent, { type: 'LOG' }>;

/**
 * A reusable node state (`RunRecord.viewNode`): every field is set at each use. Its times are read through
 * getters, so a time is made a number object only when an observer reads it (a field that is a number or
 * undefined by turns would box every time written into it).
 */
export class NodeView implements Readonly<NodeRunState> {
  nodeId = '';
  status: Status = 'PENDING';
  readonly counts: Required<NodeRunState['counts']> = { received: 0, emitted: 0, failed: 0, retried: 0, dropped: 0 };
  error: ErrorInfo | undefined = undefined;
  /** NaN: not yet. */
  started = Number.NaN;
  ended = Number.NaN;

  get startedAt(): number | undefined {
    return Number.isNaN(this.started) ? undefined : this.started;
  }

  get endedAt(): number | undefined {
    return Number.isNaN(this.ended) ? undefined : this.ended;
  }
}

/** Which node a status change moved, and from where (`RunRecord.applyNode`). */
export interface NodeChange {
  index: number;
  before: Status;
}

/** A progress snapshot of a run's history (OBS-01): a status event, always with the run's `definitionVersion`. */
export type ProgressSnapshot = RunEvent | (NodeEvent & { definitionVersion: string });

/** A node's row: started and ended times (NaN: not yet), its latest event's seq and time, then that event's fields. */
const STARTED = 0;
const ENDED = 1;
const SEQ = 2;
const AT = 3;
const EVENT = 4;
const NODE_STRIDE = EVENT + EVENT_FIELDS;
/** A snapshot's row: node index (-1: a run event, then SNAP_SEQ is its index in `runEvents`), seq, time, the event's fields. */
const SNAP_NODE = 0;
const SNAP_SEQ = 1;
const SNAP_AT = 2;
const SNAP_EVENT = 3;
const SNAP_STRIDE = SNAP_EVENT + EVENT_FIELDS;

/**
 * One run as the tracker keeps it (OBS-01), in compact records: its summary, one row of numbers per node
 * (status, counts, times, and its newest event for a late subscriber), its status events as rows (the
 * history), its few run events, results and live log lines. A finished run is a handful of objects, so
 * keeping the newest 1000 costs garbage collection little.
 */
export class RunRecord {
  results: ResultEvent[] = [];
  resultsTruncated = false;
  /** Log lines of a live run (OBS-02), made at its first; dropped with its live state `cleanup-ttl` after its end. */
  private logs: LogEvent[] | null = null;
  private logsDropped = false;
  /** NODE_STRIDE numbers per node, made at its full size at once (no growth while events arrive). */
  private nodes: Rows;
  /** The newest applied run event, replayed to a late subscriber (null for a run restored from the log). */
  private runEvent: RunEvent | null = null;
  private readonly runEvents: RunEvent[] = [];
  /** SNAP_STRIDE numbers per snapshot row; `snapLength` of them are used. */
  private snaps: Rows;
  private snapLength = 0;
  /** Absolute number of the first snapshot row kept (rows are numbered from the run's first event). */
  private snapFirst = 0;
  private snapExtras: Map<number, EventExtras> | null = null;
  private latestExtras: Map<number, EventExtras> | null = null;
  private nodeErrors: Map<number, ErrorInfo> | null = null;

  private constructor(
    readonly summary: RunSummary,
    private layout: NodeLayout,
    /** In live state: not ended, or ended less than `cleanup-ttl` ago (a restored run never is). */
    private live: boolean,
  ) {
    this.nodes = nodeRows(layout.size);
    // Room for the status events of a plain run (RUNNING and an end per node, four run events): no growth then.
    this.snaps = new Float64Array((2 * layout.size + 4) * SNAP_STRIDE);
  }

  /** A run first seen through an event of the feed. */
  static started(event: RunEvent, layout: NodeLayout): RunRecord {
    const summary: RunSummary = {
      executionId: event.executionId,
      session: event.session,
      workflowId: event.workflowId,
      definitionVersion: event.definitionVersion,
      status: 'PENDING',
      createdAt: event.at,
    };
    return new RunRecord(summary, layout, true);
  }

  /** A run read back from the execution log (DUR-01): no events of this process, no live state. */
  static restored(detail: RunDetail, layout: NodeLayout): RunRecord {
    const { nodes, results, resultsTruncated, ...summary } = detail;
    const run = new RunRecord(summary, layout, false);
    nodes.forEach((node, i) => run.restoreNode(i, node));
    run.results = results.map((r) => ({ type: 'NODE_RESULT', seq: 0, executionId: detail.executionId, at: summary.endedAt ?? summary.createdAt, ...r }));
    run.resultsTruncated = resultsTruncated;
    return run;
  }

  /** Applies a run event; returns the status it moved from, or null when it did not move. */
  applyRun(event: RunEvent, maxSnapshots: number): Status | null {
    this.runEvents.push(event);
    this.snapshot(-1, this.runEvents.length - 1, 0, null, maxSnapshots);
    const s = this.summary;
    const before = s.status;
    s.status = advanceStatus(s.status, event.status);
    if (s.status === before) return null;
    this.runEvent = event;
    if (s.status === 'RUNNING') s.startedAt = event.at;
    if (isTerminal(s.status)) {
      s.endedAt = event.at;
      if (event.error) s.error = event.error;
      this.compact();
    }
    return before;
  }

  /**
   * Applies a node event (ENG-06: a step back is ignored, its data still merged); returns whether the node's
   * status moved, and then writes its index and the status it moved from into `change` (reused by the caller).
   */
  applyNode(event: NodeEvent, maxSnapshots: number, change: NodeChange): boolean {
    const index = this.indexOf(event.nodeId);
    this.snapshot(index, event.seq, event.at, event, maxSnapshots);
    const row = this.nodes;
    const base = index * NODE_STRIDE;
    const before = statusAt(row, base + EVENT);
    const after = advanceStatus(before, event.status);
    const extras = writeEvent(row, base + EVENT, event, after);
    row[base + SEQ] = event.seq;
    row[base + AT] = event.at;
    if (extras !== null) (this.latestExtras ??= new Map()).set(index, extras);
    else this.latestExtras?.delete(index);
    if (after === before) return false;
    if (after === 'RUNNING') row[base + STARTED] = event.at;
    if (isTerminal(after)) {
      row[base + ENDED] = event.at;
      if (event.error) (this.nodeErrors ??= new Map()).set(index, event.error);
    }
    change.index = index;
    change.before = before;
    return true;
  }

  addResult(event: ResultEvent, max: number): void {
    this.results.push(event);
    if (this.results.length > max) {
      this.results.shift();
      this.resultsTruncated = true;
    }
  }

  get isLive(): boolean {
    return this.live;
  }

  /** Keeps a log line while the run is live (the oldest goes beyond `max`); returns false when it dropped one, or the run is not live. */
  addLog(event: LogEvent, max: number): boolean {
    if (!this.live) return true;
    const logs = (this.logs ??= []);
    logs.push(event);
    if (logs.length <= max) return true;
    logs.shift();
    this.logsDropped = true;
    return false;
  }

  liveLogs(): readonly LogEvent[] {
    return this.logs ?? [];
  }

  /** Leaves live state: its log lines go; it stays in history. */
  leaveLive(): void {
    this.live = false;
    this.logs = null;
  }

  nodeIndex(nodeId: string): number {
    return this.layout.indexOf(nodeId);
  }

  /** A node's state as `runs.get` shows it. */
  nodeState(index: number): NodeRunState {
    const row = this.nodes;
    const base = index * NODE_STRIDE;
    const node: NodeRunState = {
      nodeId: this.layout.ids[index]!,
      status: statusAt(row, base + EVENT),
      counts: countsAt(row, base + EVENT, this.latestExtras?.get(index)),
    };
    if (!Number.isNaN(row[base + STARTED])) node.startedAt = row[base + STARTED]!;
    if (!Number.isNaN(row[base + ENDED])) node.endedAt = row[base + ENDED]!;
    const error = this.nodeErrors?.get(index);
    if (error) node.error = error;
    return node;
  }

  /** The node's state written into `view` (its counts object reused too), for observers told in passing. */
  viewNode(index: number, view: NodeView): Readonly<NodeRunState> {
    const row = this.nodes;
    const base = index * NODE_STRIDE + EVENT;
    view.nodeId = this.layout.ids[index]!;
    view.status = statusAt(row, base);
    const counts = view.counts;
    const extras = this.latestExtras?.get(index);
    counts.received = row[base + 1]!;
    counts.emitted = row[base + 2]!;
    counts.failed = extras?.failed ?? 0;
    counts.retried = extras?.retried ?? 0;
    counts.dropped = extras?.dropped ?? 0;
    view.started = row[index * NODE_STRIDE + STARTED]!;
    view.ended = row[index * NODE_STRIDE + ENDED]!;
    view.error = this.nodeErrors?.get(index);
    return view;
  }

  detail(): RunDetail {
    const nodes: NodeRunState[] = [];
    for (let i = 0; i < this.layout.size; i++) nodes.push(this.nodeState(i));
    return {
      ...this.summary,
      nodes,
      results: this.results.map((r) => ({ nodeId: r.nodeId, messageId: r.messageId, payload: r.payload, ...(r.metadata ? { metadata: r.metadata } : {}) })),
      resultsTruncated: this.resultsTruncated,
    };
  }

  /** The newest `max` snapshots, oldest first, node events with the run's `definitionVersion`. */
  history(max: number): ProgressSnapshot[] {
    const out: ProgressSnapshot[] = [];
    const rows = this.snapLength / SNAP_STRIDE;
    const version = this.summary.definitionVersion;
    for (let r = Math.max(0, rows - max); r < rows; r++) {
      const event = this.snapshotAt(r);
      out.push(event.type === 'NODE_STATUS' ? { ...event, definitionVersion: version } : event);
    }
    return out;
  }

  /**
   * The run's current state as events (OBS-01 catch-up), unfiltered: its newest run event (with every node
   * id), each node's newest status, results and live log lines, in feed order.
   */
  catchUp(): StudioEvent[] {
    const s = this.summary;
    const nodeIds = [...this.layout.ids];
    // A run restored from the durable log (DUR-01) has no events of this process: its state is rebuilt from the summary.
    const head: RunEvent = this.runEvent
      ? { ...this.runEvent, status: s.status, nodeIds }
      : {
          type: 'EXECUTION_STATUS',
          seq: 0,
          executionId: s.executionId,
          at: s.endedAt ?? s.startedAt ?? s.createdAt,
          session: s.session,
          workflowId: s.workflowId,
          definitionVersion: s.definitionVersion,
          status: s.status,
          nodeIds,
        };
    if (s.error) head.error = s.error;
    if (isTerminal(s.status) && (this.resultsTruncated || (this.live && this.logsDropped))) head.truncated = true;
    const rest: StudioEvent[] = [];
    for (let i = 0; i < this.layout.size; i++) {
      const latest = this.latestEvent(i);
      if (latest) rest.push(latest);
      else if (!this.runEvent) rest.push(this.restoredNodeEvent(i));
    }
    rest.push(...this.results, ...this.liveLogs());
    rest.sort((a, b) => a.seq - b.seq);
    return [head, ...rest];
  }

  private indexOf(nodeId: string): number {
    const index = this.layout.indexOf(nodeId);
    if (index >= 0) return index;
    this.layout = this.layout.with(nodeId);
    this.addNodeRow();
    return this.layout.size - 1;
  }

  private addNodeRow(): void {
    const nodes = nodeRows(this.layout.size);
    nodes.set(this.nodes);
    this.nodes = nodes;
  }

  private restoreNode(index: number, node: NodeRunState): void {
    const base = index * NODE_STRIDE;
    const row = this.nodes;
    const extras = writeCounts(row, base + EVENT, node.status, node.counts);
    if (extras !== null) (this.latestExtras ??= new Map()).set(index, extras);
    row[base + STARTED] = node.startedAt ?? Number.NaN;
    row[base + ENDED] = node.endedAt ?? Number.NaN;
    if (node.error) (this.nodeErrors ??= new Map()).set(index, node.error);
  }

  /** The node's newest event as applied (its status the node's own), or null before its first. */
  private latestEvent(index: number): NodeEvent | null {
    const base = index * NODE_STRIDE;
    const row = this.nodes;
    if (row[base + SEQ] === 0) return null;
    return readEvent(
      row,
      base + EVENT,
      { executionId: this.summary.executionId, nodeId: this.layout.ids[index]!, seq: row[base + SEQ]!, at: row[base + AT]! },
      this.latestExtras?.get(index),
    );
  }

  private restoredNodeEvent(index: number): NodeEvent {
    const node = this.nodeState(index);
    const event: NodeEvent = {
      type: 'NODE_STATUS',
      seq: 0,
      executionId: this.summary.executionId,
      at: node.endedAt ?? node.startedAt ?? this.summary.createdAt,
      nodeId: node.nodeId,
      status: node.status,
      counts: node.counts,
    };
    if (node.error) event.error = node.error;
    return event;
  }

  /** Keeps the event as a row; beyond twice the cap the oldest rows are dropped at once (amortised). */
  private snapshot(nodeIndex: number, seq: number, at: number, event: NodeEvent | null, max: number): void {
    const offset = this.snapLength;
    if (offset + SNAP_STRIDE > this.snaps.length) this.snaps = grown(this.snaps, offset + SNAP_STRIDE);
    const rows = this.snaps;
    rows[offset + SNAP_NODE] = nodeIndex;
    rows[offset + SNAP_SEQ] = seq;
    rows[offset + SNAP_AT] = at;
    if (event !== null) {
      const extras = writeEvent(rows, offset + SNAP_EVENT, event);
      if (extras !== null) (this.snapExtras ??= new Map()).set(this.snapFirst + offset / SNAP_STRIDE, extras);
    }
    this.snapLength = offset + SNAP_STRIDE;
    const count = this.snapLength / SNAP_STRIDE;
    if (count < 2 * max) return;
    const drop = count - max;
    this.snaps.copyWithin(0, drop * SNAP_STRIDE, this.snapLength);
    this.snapLength -= drop * SNAP_STRIDE;
    this.snapFirst += drop;
    if (this.snapExtras) for (const n of this.snapExtras.keys()) if (n < this.snapFirst) this.snapExtras.delete(n);
  }

  /** A finished run gives back the room it did not use, when that is worth a copy (over a quarter). */
  private compact(): void {
    if (this.snaps.length > this.snapLength * 1.25) this.snaps = this.snaps.slice(0, this.snapLength);
  }

  private snapshotAt(r: number): RunEvent | NodeEvent {
    const rows = this.snaps;
    const o = r * SNAP_STRIDE;
    const nodeIndex = rows[o + SNAP_NODE]!;
    if (nodeIndex < 0) return this.runEvents[rows[o + SNAP_SEQ]!]!;
    return readEvent(
      rows,
      o + SNAP_EVENT,
      { executionId: this.summary.executionId, nodeId: this.layout.ids[nodeIndex]!, seq: rows[o + SNAP_SEQ]!, at: rows[o + SNAP_AT]! },
      this.snapExtras?.get(this.snapFirst + r),
    );
  }
}

/** Rows of `count` nodes in their first state (no event yet: PENDING, no times), in one array of doubles. */
function nodeRows(count: number): Rows {
  const rows = new Float64Array(count * NODE_STRIDE);
  const pending = statusCode('PENDING'); // no optional part, attempt 0
  for (let base = 0; base < rows.length; base += NODE_STRIDE) {
    rows[base + STARTED] = Number.NaN;
    rows[base + ENDED] = Number.NaN;
    rows[base + EVENT] = pending;
  }
  return rows;
}

function grown(rows: Rows, needed: number): Rows {
  const next = new Float64Array(Math.max(needed, rows.length * 2));
  next.set(rows);
  return next;
}
