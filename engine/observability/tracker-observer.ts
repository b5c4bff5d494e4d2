import type { NodeRunState, RunSummary } from '../../shared/api/runs.schema';
import type { Status } from '../../shared/status/status';

/**
 * What metrics and tracing learn from the tracker (OBS-04, OBS-05): status changes the run state
 * accepted (a step back or a second end never reaches an observer), called while a batch is applied.
 * Nothing here runs per message: a node reports a handful of status changes in its life.
 */
export interface TrackerObserver {
  /** A run moved from `before` to `run.status` (PENDING → QUEUED → RUNNING → terminal). */
  runChanged?(run: Readonly<RunSummary>, before: Status): void;
  /** A node of `run` moved from `before` to `node.status`; `node` is a view valid during the call only (read it, do not keep it). */
  nodeChanged?(run: Readonly<RunSummary>, node: Readonly<NodeRunState>, before: Status): void;
}

/** Tracker counters the metrics read when scraped (never pushed on the hot path). */
export interface TrackerCounters {
  /** Events waiting to be applied (`yukta.tracker.queue.depth`). */
  readonly queueDepth: number;
  /** Log lines dropped (`yukta.tracker.dropped{type=log}`). */
  readonly droppedLogs: number;
  /** Events that arrived after the tracker closed (`yukta.tracker.dropped{type=state}`). */
  readonly droppedState: number;
  /** Log lines that could not be stored (`yukta.tracker.log.append.failed{type=node|run}`). */
  readonly logAppendFailed: { node: number; run: number };
}
