import type { ErrorInfo, NodeCounts, StudioEvent, UnnumberedEvent } from '../../shared/events/events';
import type { Status } from '../../shared/status/status';
import type { NodeTimers } from './node-timers';

/** Minimum time between two progress events of one node. */
const PROGRESS_INTERVAL_MS = 200;

/**
 * A node's status and message counts, and the NODE_STATUS events that report them: one at each status
 * change, and progress at most every 200 ms while it works (OBS-01).
 */
export class NodeReport {
  status: Status = 'PENDING';
  readonly counts: Required<NodeCounts> = { received: 0, emitted: 0, failed: 0, retried: 0, dropped: 0 };
  private lastProgressAt = 0;
  /** The attempt running now (ENG-04); reported while above 1. */
  private attempt = 1;
  /**
   * The last event sent, kept (one per node, replaced by the next; `reset` keeps it) so that between runs a
   * live object still has each event shape: V8 drops a hidden class no live object has after two full GCs and
   * throws away the optimized code that embeds it (the bus's, the tracker's, the channel's), to be made again
   * in the next run (docs/performance.md, issue 16 round 2).
   */
  private lastSent: UnnumberedEvent | null = null;

  constructor(
    private executionId: string,
    private readonly nodeId: string,
    private readonly timers: NodeTimers,
    private emit: (event: UnnumberedEvent) => void,
    /** The node's input buffer (fill and capacity), reported with every event; null for triggers. */
    private readonly buffer: { readonly length: number; readonly capacity: number } | null = null,
  ) {}

  /** PENDING with no counts, reporting to another run (a node's stage serves its workflow's runs one after another). */
  reset(executionId: string, emit: (event: UnnumberedEvent) => void): void {
    this.executionId = executionId;
    this.emit = emit;
    this.status = 'PENDING';
    const c = this.counts;
    c.received = c.emitted = c.failed = c.retried = c.dropped = 0;
    this.lastProgressAt = 0;
    this.attempt = 1;
  }

  /** Reports that a message is now held at the node's valve (its id), or that it moved on (null). */
  held(messageId: string | null): void {
    this.send(this.timers.now(), undefined, messageId);
  }

  /** A message is tried again: reports its next attempt at once (retries are rare and backed off). */
  retrying(attempt: number): void {
    this.attempt = attempt;
    this.send(this.timers.now(), undefined);
  }

  /** A message's attempts ended (it succeeded or failed for good): later events report no attempt. */
  attemptsEnded(): void {
    this.attempt = 1;
  }

  set(next: Status, error?: ErrorInfo): void {
    if (next === this.status) return;
    this.status = next;
    const now = this.timers.now();
    this.lastProgressAt = now;
    this.send(now, error);
  }

  /** Reports counts if the last report is old enough; cheap enough to call every few hundred messages. */
  progress(): void {
    const now = this.timers.now();
    if (now - this.lastProgressAt < PROGRESS_INTERVAL_MS) return;
    this.lastProgressAt = now;
    this.send(now, undefined);
  }

  private send(at: number, error: ErrorInfo | undefined, held?: string | null): void {
    const c = this.counts;
    const counts: NodeCounts = { received: c.received, emitted: c.emitted };
    if (c.failed) counts.failed = c.failed;
    if (c.retried) counts.retried = c.retried;
    if (c.dropped) counts.dropped = c.dropped;
    const buffer = this.buffer;
    // The common event is made whole in one literal, its `seq` too (the bus numbers it; last, where the bus
    // would add it): no property is added after, so no second allocation for the added properties.
    if (buffer !== null && error === undefined && held === undefined && this.attempt <= 1) {
      const common: StudioEvent = {
        type: 'NODE_STATUS',
        executionId: this.executionId,
        at,
        nodeId: this.nodeId,
        status: this.status,
        counts,
        buffer: { used: buffer.length, size: buffer.capacity },
        seq: 0,
      };
      this.lastSent = common;
      this.emit(common);
      return;
    }
    const event: UnnumberedEvent = { type: 'NODE_STATUS', executionId: this.executionId, at, nodeId: this.nodeId, status: this.status, counts };
    if (error) event.error = error;
    if (held !== undefined) event.held = held;
    if (buffer !== null) event.buffer = { used: buffer.length, size: buffer.capacity };
    if (this.attempt > 1) event.attempt = this.attempt;
    this.lastSent = event;
    this.emit(event);
  }
}
