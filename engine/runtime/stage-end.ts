import type { ErrorInfo } from '../../shared/events/events';
import { isFailure, type Status } from '../../shared/status/status';
import { toErrorInfo } from './errors';
import type { PreparedNode } from './prepared-workflow';

/** A node ended by a timer or a stop, not by its own work. */
export interface NodeHalt {
  status: 'TIMED_OUT' | 'CANCELLED' | 'STOPPED';
  error: Error;
}

/** How a node ended: its status and, unless it was cancelled, why. */
export interface NodeEnd {
  status: Status;
  error?: ErrorInfo;
}

/**
 * What decides how a node ends (ENG-03, ENG-06): a halt from outside (a stop or a timeout), its parents'
 * ends under its join rule, the run being cancelled, and whether its own work threw. `end` is the one
 * place the end status is computed.
 */
export class StageEnd {
  private halt: NodeHalt | null = null;
  private upstreamFailed = false;
  private parentSucceeded = false;

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
    if (status === 'CANCELLED') return { status };
    if (this.halt !== null) return { status, error: toErrorInfo(this.halt.error) };
    return threw ? { status, error: toErrorInfo(thrown) } : { status };
  }

  private statusOf(threw: boolean): Status {
    if (this.upstreamFailed) return 'UPSTREAM_FAILED';
    if (this.run.cancelled) return 'CANCELLED';
    if (threw) return 'FAILURE';
    if (this.node.incoming > 0 && this.node.trigger === 'ONE_SUCCESS' && !this.parentSucceeded) return 'UPSTREAM_FAILED';
    return 'SUCCESS';
  }
}
