import type { ErrorInfo } from '../../shared/events/events';
import { isFailure, Status } from '../../shared/status/status';
import { failedMessageInfo, toErrorInfo, type FailedMessage } from './errors';
import type { Message } from './message';
import type { PreparedNode } from './prepared-workflow';

/** A node ended by a timer or a stop, not by its own work. */
export interface NodeHalt {
  status: 'TIMED_OUT' | 'CANCELLED' | 'STOPPED';
  error: Error;
}

/** How a node ended: its status and, unless it was cancelled, why. */
export interface NodeEnd {
  readonly status: Status;
  readonly error?: ErrorInfo;
}

/** The ends without an error, made once (every node of every run ends; most end like this). */
const BARE_ENDS = Object.fromEntries(Status.options.map((status) => [status, Object.freeze({ status })])) as { readonly [K in Status]: NodeEnd };

/**
 * What decides how a node ends (ENG-03, ENG-06): a halt from outside (a stop or a timeout), its parents'
 * ends under its join rule, the run being cancelled, and whether its own work threw. `end` is the one
 * place the end status is computed; a node its own failure ends carries the message that failed (OBS-02).
 */
export class StageEnd {
  private halt: NodeHalt | null = null;
  private upstreamFailed = false;
  private parentSucceeded = false;
  /** The last message whose attempts all failed (under a failure policy). */
  private lastFailed: FailedMessage | null = null;
  /** The message being handled, for the error should its one attempt fail the node. */
  private inFlight: Message | null = null;
  private inFlightEnded = false;

  constructor(
    private readonly node: PreparedNode,
    private run: { readonly cancelled: boolean },
  ) {}

  /** Nothing has happened to the node yet, in this run. */
  reset(run: { readonly cancelled: boolean }): void {
    this.run = run;
    this.halt = null;
    this.upstreamFailed = false;
    this.parentSucceeded = false;
    this.lastFailed = null;
    this.inFlight = null;
    this.inFlightEnded = false;
  }

  /** The message the plugin is handling now, or null between messages. */
  handling(message: Message | null): void {
    this.inFlight = message;
  }

  /** A message failed for good under the node's failure policy (its attempts logged their failures). */
  messageFailed(failed: FailedMessage): void {
    this.lastFailed = failed;
  }

  /** The end was a failure of the message in flight without a policy: its one attempt is not logged yet. */
  get inFlightFailed(): boolean {
    return this.inFlightEnded;
  }

  /** True once the node takes no more messages: it was halted, or its run stopped for good. */
  get stopped(): boolean {
    return this.halt !== null || this.run.cancelled;
  }

  get halted(): boolean {
    return this.halt !== null;
  }

  /** Its input was stopped because a parent failed (ALL_SUCCESS). */
  get failedUpstream(): boolean {
    return this.upstreamFailed;
  }

  /** A parent ended; true when its failure must stop this node's input at once (ALL_SUCCESS, ENG-03). */
  parentEnded(status: Status): boolean {
    if (status === 'SUCCESS') this.parentSucceeded = true;
    if (!isFailure(status) || this.node.trigger !== 'ALL_SUCCESS') return false;
    this.upstreamFailed = true;
    return true;
  }

  /** Records a halt; a node already ending for its parents' failure keeps that reason when the run is cancelled around it. */
  haltWith(halt: NodeHalt): void {
    if (!(halt.status === 'CANCELLED' && this.upstreamFailed)) this.halt = halt;
  }

  /** The node's end once its work is over; `threw` with what the work threw, if it did. */
  end(threw: boolean, thrown?: unknown): NodeEnd {
    const status = this.halt?.status ?? this.statusOf(threw);
    if (status === 'CANCELLED') return BARE_ENDS[status];
    if (this.halt !== null) return { status, error: toErrorInfo(this.halt.error) };
    if (!threw) return BARE_ENDS[status];
    const error = toErrorInfo(thrown);
    const failed = status === 'FAILURE' ? this.failedMessage() : null;
    return failed === null ? { status, error } : { status, error: { ...error, ...failedMessageInfo(failed) } };
  }

  private failedMessage(): FailedMessage | null {
    if (this.lastFailed !== null) return this.lastFailed;
    if (this.inFlight === null) return null;
    this.inFlightEnded = true;
    return { attempt: 1, maxAttempts: 1, input: this.inFlight.payload };
  }

  private statusOf(threw: boolean): Status {
    if (this.upstreamFailed) return 'UPSTREAM_FAILED';
    if (this.run.cancelled) return 'CANCELLED';
    if (threw) return 'FAILURE';
    if (this.node.incoming > 0 && this.node.trigger === 'ONE_SUCCESS' && !this.parentSucceeded) return 'UPSTREAM_FAILED';
    return 'SUCCESS';
  }
}
