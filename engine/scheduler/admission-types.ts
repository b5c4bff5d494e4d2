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
  /** A queued start (this execution id) left the queue without running (timed out, refused at shutdown, cancelled). */
  dropped(reason: DropReason, executionId: string): void;
}

/** A granted slot; the run releases it once it has ended (release is idempotent). */
export interface Slot {
  readonly executionId: string;
  readonly isReleased: boolean;
  release(): void;
}

/** Called by a ticket whose slot is released. */
export interface TicketOwner {
  released(ticket: Ticket): void;
}

/** Running and waiting starts of one session, or of one workflow of a session. */
export class Group {
  running = 0;
  queued = 0;
  /** Set once the group is forgotten (nothing running or waiting); a new one replaces it. */
  detached = false;
  /** A session's workflows (null on a workflow's own group). */
  readonly workflows: Map<string, Group> | null;
  /** The fairness key of a session's starts that name none. */
  readonly sessionKey: string;

  constructor(
    readonly owner: TicketOwner,
    readonly session: string,
    /** The session's group, for a workflow's group; null for a session's. */
    readonly parent: Group | null,
    readonly workflowId: string | null,
  ) {
    this.workflows = parent === null ? new Map() : null;
    this.sessionKey = `session:${session}`;
  }

  get idle(): boolean {
    return this.running === 0 && this.queued === 0 && (this.workflows === null || this.workflows.size === 0);
  }
}

export type TicketState = 'queued' | 'running' | 'done';

/**
 * One start from admission to the end of its run: first a place in the queue (a FairEntry), then the slot
 * it holds. One small object per start (the request is not kept) keeps admission cheap.
 */
export class Ticket extends FairEntry implements Slot {
  executionId = '';
  state: TicketState = 'queued';
  /** When it was queued; once running, when its slot was granted. */
  since: number;
  /** Neighbours in the one list the ticket is in: the arrivals while queued, the holders while running. */
  older: Ticket | null = null;
  newer: Ticket | null = null;
  readonly onGranted: AdmissionRequest['granted'];
  readonly onDropped: AdmissionRequest['dropped'];

  constructor(
    seq: number,
    /** The workflow's counts (its parent holds the session's). */
    readonly workflowGroup: Group,
    request: AdmissionRequest,
    now: number,
  ) {
    super(seq, request.priority, request.fairnessKey ?? workflowGroup.parent!.sessionKey, request.fairnessWeight);
    this.since = now;
    this.onGranted = request.granted;
    this.onDropped = request.dropped;
  }

  get sessionGroup(): Group {
    return this.workflowGroup.parent!;
  }

  get session(): string {
    return this.workflowGroup.session;
  }

  get workflowId(): string {
    return this.workflowGroup.workflowId!;
  }

  get isReleased(): boolean {
    return this.state === 'done';
  }

  release(): void {
    if (this.state !== 'running') return;
    this.state = 'done';
    this.workflowGroup.owner.released(this);
  }
}

/** Tickets oldest first (waiting starts in arrival order, or holders in grant order); O(1) append and removal. */
export class TicketList {
  head: Ticket | null = null;
  private tail: Ticket | null = null;

  append(entry: Ticket): void {
    entry.older = this.tail;
    entry.newer = null;
    if (this.tail !== null) this.tail.newer = entry;
    else this.head = entry;
    this.tail = entry;
  }

  remove(entry: Ticket): void {
    if (entry.older !== null) entry.older.newer = entry.newer;
    else this.head = entry.newer;
    if (entry.newer !== null) entry.newer.older = entry.older;
    else this.tail = entry.older;
    entry.older = entry.newer = null;
  }
}
