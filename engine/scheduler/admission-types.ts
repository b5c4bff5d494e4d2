import { FairEntry } from './fair-queue';

/** Why a waiting start left the queue without a slot. */
export type DropReason = 'queue_timeout' | 'shutdown' | 'cancelled';

/** What the scheduler is asked to admit. */
export interface AdmissionRequest {
  session: string;
  workflowId: string;
  /** `yukta.priority`: higher first (0 by default). */
  priority: number;
  /** `yukta.fairnessKey`; the session when absent. */
  fairnessKey?: string | undefined;
  /** `yukta.fairnessWeight` (1 by default). */
  fairnessWeight: number;
  /** A queued start got its slot: start the run now. Throwing releases the slot. */
  granted(slot: Slot): void;
  /** A queued start left the queue without running (timed out, refused at shutdown, cancelled). */
  dropped(reason: DropReason): void;
}

/** Who holds, or waits for, a slot. */
export interface SlotHolder {
  readonly session: string;
  readonly workflowId: string;
  /** `session/workflowId`: per-workflow caps count workflows per session. */
  readonly workflowKey: string;
  priority: number;
  readonly fairnessKey: string;
  readonly fairnessWeight: number;
}

/** A granted slot; the run releases it once it has ended (release is idempotent). */
export class Slot {
  executionId = '';
  private released = false;

  constructor(
    readonly holder: SlotHolder,
    readonly grantedAt: number,
    private readonly onRelease: (slot: Slot) => void,
  ) {}

  get isReleased(): boolean {
    return this.released;
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.onRelease(this);
  }
}

/** A start waiting in the queue. */
export class QueuedStart extends FairEntry {
  executionId = '';
  /** Neighbours in arrival order (the queue timeout walks this list from its oldest end). */
  olderArrival: QueuedStart | null = null;
  newerArrival: QueuedStart | null = null;

  constructor(
    seq: number,
    readonly holder: SlotHolder,
    readonly request: AdmissionRequest,
    readonly enqueuedAt: number,
  ) {
    super(seq, holder.priority, holder.fairnessKey, holder.fairnessWeight);
  }
}

/** Waiting starts in arrival order, oldest first; O(1) append and removal. */
export class ArrivalList {
  head: QueuedStart | null = null;
  private tail: QueuedStart | null = null;

  append(entry: QueuedStart): void {
    entry.olderArrival = this.tail;
    entry.newerArrival = null;
    if (this.tail !== null) this.tail.newerArrival = entry;
    else this.head = entry;
    this.tail = entry;
  }

  remove(entry: QueuedStart): void {
    if (entry.olderArrival !== null) entry.olderArrival.newerArrival = entry.newerArrival;
    else this.head = entry.newerArrival;
    if (entry.newerArrival !== null) entry.newerArrival.olderArrival = entry.olderArrival;
    else this.tail = entry.olderArrival;
    entry.olderArrival = entry.newerArrival = null;
  }
}
