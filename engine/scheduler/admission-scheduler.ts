import { assertNever } from '../../shared/assert-never';
import { QueueFullError, RateLimitedError, UnavailableError } from '../engine-errors';
import {
  DEFAULT_SCHEDULER_LIMITS,
  LIMIT_SETTING_NAMES,
  REJECT_REASONS,
  type RejectReason,
  type SchedulerLimits,
  type SchedulerLimitsPatch,
} from '../../shared/api/scheduler.schema';
import type { Clock, TimerHandle } from '../runtime/clock';
import { Group, Ticket, TicketList, type AdmissionRequest, type DropReason, type Slot, type TicketOwner } from './admission-types';
import { FairQueue } from './fair-queue';
import { blockersOf, type CapState } from './queue-explain';

export type { AdmissionRequest, DropReason, Slot, Ticket };

/** `Retry-After` of a refused start: a rough hint, since how long a slot stays taken is the workflow's business. */
export const RETRY_AFTER_SECONDS = 1;

export interface AdmissionSchedulerOptions {
  clock: Clock;
  limits?: SchedulerLimitsPatch | undefined;
  /** False on a standby server of a high-availability pair: every start is refused (`not_leader`). */
  isLeader?: (() => boolean) | undefined;
  /** On a standby: who leads, for the refusal's message ("leader is <host>", SCL-02); null when unknown. */
  leader?: (() => string | null) | undefined;
  /** Receives an error thrown by a grant or drop callback (the slot is released, the queue goes on). */
  onCallbackError?: ((error: unknown) => void) | undefined;
}

/**
 * The admission scheduler (ADM-01, ADM-04): grants a slot to a start that fits every cap, queues (QUEUE) or
 * refuses (REJECT, 429) one that does not, refuses beyond the queue's capacity, ends a start that waited
 * longer than the queue timeout, and admits waiting starts in fair order whenever a slot frees or a limit
 * changes. Everything here is synchronous: a decision and the slot it grants happen in one turn of the
 * event loop, so two starts racing for the last slot can never both get it.
 */
export class AdmissionScheduler implements CapState, TicketOwner {
  private current: SchedulerLimits;
  private readonly queue = new FairQueue<Ticket>();
  /** Waiting starts in arrival order, kept only while a queue timeout is set (the timeout reads the oldest). */
  private arrivals: TicketList | null = null;
  /** Starts holding a slot, in grant order. */
  private readonly holding = new TicketList();
  /** Sessions, each with its workflows: running and waiting counts for the caps and the panel. */
  readonly sessions = new Map<string, Group>();
  private running = 0;
  /** The workflow group of the latest start: most starts in a row name the same workflow. */
  private lastWorkflow: Group | null = null;
  private readonly rejected = Object.fromEntries(REJECT_REASONS.map((r) => [r, 0])) as Record<RejectReason, number>;
  private nextSeq = 1;
  private timer: TimerHandle | null = null;
  private closed = false;
  private pumping = false;
  private pumpAgain = false;

  constructor(private readonly options: AdmissionSchedulerOptions) {
    this.current = { ...DEFAULT_SCHEDULER_LIMITS, ...options.limits };
    this.trackArrivals();
  }

  get limits(): SchedulerLimits {
    return { ...this.current };
  }

  /** Gauge `yukta.executions.running`: starts holding a slot. */
  get runningCount(): number {
    return this.running;
  }

  /** Gauge `yukta.executions.queued`. */
  get queuedCount(): number {
    return this.queue.size;
  }

  get shuttingDown(): boolean {
    return this.closed;
  }

  /** Counter `yukta.executions.rejected`, by reason. */
  rejectedCounts(): Record<RejectReason, number> {
    return { ...this.rejected };
  }

  runningOfSession(session: string): number {
    return this.sessions.get(session)?.running ?? 0;
  }

  runningOfWorkflow(session: string, workflowId: string): number {
    return this.sessions.get(session)?.workflows!.get(workflowId)?.running ?? 0;
  }

  /**
   * Decides a start: a slot now (the ticket is RUNNING and is the slot), a place in the queue (`request.granted`
   * is called with the ticket when the slot comes), or a refusal (throws RATE_LIMITED, QUEUE_FULL or
   * UNAVAILABLE). `newId` is called only once the slot or the queue place is taken, so a refused start never
   * gets an id. The caller keeps the ticket to cancel or re-prioritise a waiting start (the scheduler keeps
   * no index by id: the launcher has one already).
   */
  admit(request: AdmissionRequest, newId: () => string): Ticket {
    this.refuseUnlessLeader();
    if (this.closed) this.refuse('shutdown', 'UNAVAILABLE', 'the server is shutting down and admits no new runs');
    let workflow = this.lastWorkflow;
    if (workflow === null || workflow.workflowId !== request.workflowId || workflow.session !== request.session || workflow.detached) {
      workflow = this.lastWorkflow = this.workflowGroup(this.sessionGroup(request.session), request.workflowId);
    }
    const ticket = new Ticket(this.nextSeq++, workflow, request, this.options.clock.now());
    if (this.fits(ticket)) {
      ticket.executionId = newId();
      this.hold(ticket);
      return ticket;
    }
    this.checkQueueRoom(ticket);
    ticket.executionId = newId();
    this.enqueue(ticket);
    return ticket;
  }

  /** Takes a waiting start out of the queue (the caller cancelled it); false when it is not waiting. */
  withdraw(ticket: Ticket): boolean {
    if (ticket.state !== 'queued') return false;
    this.drop(ticket, 'cancelled');
    return true;
  }

  /** Moves a waiting start to another priority, keeping its arrival; returns its new 1-based position, or null when it is not waiting. */
  setPriority(ticket: Ticket, priority: number): number | null {
    if (ticket.state !== 'queued') return null;
    this.queue.remove(ticket);
    ticket.priority = priority;
    this.queue.push(ticket);
    return this.queue.ordered().indexOf(ticket) + 1;
  }

  /** Applies a change of limits at once: a raised cap admits waiting starts; a lowered one stops no running run. */
  setLimits(patch: SchedulerLimitsPatch): SchedulerLimits {
    this.current = { ...this.current, ...patch };
    this.disarmTimeout();
    this.trackArrivals();
    this.armTimeout();
    this.pump();
    return this.limits;
  }

  /** Shutdown (ADM-01): nothing new is admitted and every waiting start is refused. */
  close(): void {
    this.closed = true;
    this.disarmTimeout();
    for (const t of this.queue.ordered()) this.drop(t, 'shutdown');
  }

  /** Waiting starts in admission order (the first `limit`). */
  queued(limit = Infinity): Ticket[] {
    return this.queue.ordered(limit);
  }

  /** Starts holding a slot, in the order they got it (the first `limit`). */
  holders(limit = Infinity): Ticket[] {
    const out: Ticket[] = [];
    for (let t = this.holding.head; t !== null && out.length < limit; t = t.newer) out.push(t);
    return out;
  }

  /** The caps that hold a waiting start back right now (empty when none does). */
  blockersOf(ticket: Ticket) {
    return blockersOf(this, ticket);
  }

  /** A ticket's slot was released (TicketOwner). */
  released(ticket: Ticket): void {
    this.holding.remove(ticket);
    this.running--;
    ticket.sessionGroup.running--;
    ticket.workflowGroup.running--;
    this.forgetIdle(ticket);
    this.pump();
  }

  private fits(t: Ticket): boolean {
    const l = this.current;
    return (
      (l.maxConcurrent === 0 || this.running < l.maxConcurrent) &&
      (l.maxConcurrentPerWorkflow === 0 || t.workflowGroup.running < l.maxConcurrentPerWorkflow) &&
      (l.maxConcurrentPerSession === 0 || t.sessionGroup.running < l.maxConcurrentPerSession)
    );
  }

  private checkQueueRoom(t: Ticket): void {
    const l = this.current;
    if (l.onLimit === 'REJECT')
      this.refuse('limit', 'RATE_LIMITED', `no slot is free (${describeCaps(this, t)}) and ${LIMIT_SETTING_NAMES.onLimit} is REJECT`, t);
    if (this.queue.size >= l.queueCapacity)
      this.refuse('queue_full', 'QUEUE_FULL', `no slot is free and the queue is full (${LIMIT_SETTING_NAMES.queueCapacity} ${l.queueCapacity})`, t);
    if (l.queueCapacityPerWorkflow > 0 && t.workflowGroup.queued >= l.queueCapacityPerWorkflow) {
      this.refuse(
        'workflow_queue_full',
        'QUEUE_FULL',
        `no slot is free and workflow "${t.workflowId}" already has ${l.queueCapacityPerWorkflow} waiting (${LIMIT_SETTING_NAMES.queueCapacityPerWorkflow})`,
        t,
      );
    }
  }

  /** A standby refuses every start, restart and resume (`not_leader`, SCL-02), before it waits for anything. */
  refuseUnlessLeader(): void {
    if (!this.options.isLeader || this.options.isLeader()) return;
    const leader = this.options.leader?.() ?? null;
    this.refuse(
      'not_leader',
      'UNAVAILABLE',
      `this server is a standby (read-only); ${leader === null ? 'no leader holds the lease right now' : `leader is ${leader}`}: start the run on the leader`,
    );
  }

  private refuse(reason: RejectReason, code: Refusal, message: string, ticket?: Ticket): never {
    this.rejected[reason]++;
    if (ticket) this.forgetIdle(ticket);
    throw refusal(code, `start refused: ${message}`);
  }

  private hold(t: Ticket): void {
    t.state = 'running';
    t.since = this.options.clock.now();
    this.holding.append(t);
    this.running++;
    t.sessionGroup.running++;
    t.workflowGroup.running++;
  }

  private enqueue(t: Ticket): void {
    this.queue.push(t);
    this.arrivals?.append(t);
    t.sessionGroup.queued++;
    t.workflowGroup.queued++;
    if (this.arrivals !== null) this.armTimeout();
  }

  /** Takes a ticket out of the queue; `admitted` moves its fairness key's virtual time on. */
  private dequeue(t: Ticket, admitted: boolean): void {
    if (admitted) this.queue.admit(t);
    else this.queue.remove(t);
    this.arrivals?.remove(t);
    t.sessionGroup.queued--;
    t.workflowGroup.queued--;
  }

  private drop(t: Ticket, reason: DropReason): void {
    this.dequeue(t, false);
    t.state = 'done';
    this.forgetIdle(t);
    if (reason !== 'cancelled') this.rejected[reason]++;
    this.callback(() => t.onDropped(reason, t.executionId));
  }

  /** Admits waiting starts while a slot is free; re-entrant calls (a grant that releases) loop here instead. */
  private pump(): void {
    if (this.pumping) return void (this.pumpAgain = true);
    this.pumping = true;
    try {
      do {
        this.pumpAgain = false;
        while (!this.closed && this.queue.size > 0 && (this.current.maxConcurrent === 0 || this.running < this.current.maxConcurrent)) {
          const perCaps = this.current.maxConcurrentPerWorkflow > 0 || this.current.maxConcurrentPerSession > 0;
          const next = perCaps ? this.queue.find((t) => this.fits(t)) : this.queue.peek();
          if (next === null) break;
          this.grant(next);
        }
      } while (this.pumpAgain);
    } finally {
      this.pumping = false;
    }
  }

  private grant(t: Ticket): void {
    this.dequeue(t, true);
    this.hold(t);
    try {
      t.onGranted(t);
    } catch (error) {
      this.options.onCallbackError?.(error);
      t.release();
    }
  }

  private callback(body: () => void): boolean {
    try {
      body();
      return true;
    } catch (error) {
      this.options.onCallbackError?.(error);
      return false;
    }
  }

  private sessionGroup(session: string): Group {
    let group = this.sessions.get(session);
    if (group === undefined) this.sessions.set(session, (group = new Group(this, session, null, null)));
    return group;
  }

  private workflowGroup(session: Group, workflowId: string): Group {
    let group = session.workflows!.get(workflowId);
    if (group === undefined) session.workflows!.set(workflowId, (group = new Group(this, session.session, session, workflowId)));
    return group;
  }

  /** Drops the counts of a workflow and session with nothing running or waiting, so names do not pile up. */
  private forgetIdle(t: Ticket): void {
    if (!t.workflowGroup.idle) return;
    t.workflowGroup.detached = true;
    t.sessionGroup.workflows!.delete(t.workflowGroup.workflowId!);
    if (t.sessionGroup.idle) {
      t.sessionGroup.detached = true;
      this.sessions.delete(t.sessionGroup.session);
    }
  }

  /** Starts or stops keeping the arrival order, as a queue timeout is set or cleared. */
  private trackArrivals(): void {
    if (this.current.queueTimeoutMs === 0) return void (this.arrivals = null);
    if (this.arrivals !== null) return;
    const list = (this.arrivals = new TicketList());
    for (const t of this.queue.ordered().sort((a, b) => a.seq - b.seq)) list.append(t);
  }

  /** One timer for the whole queue: the oldest waiting start times out first (arrival order = deadline order). */
  private armTimeout(): void {
    const timeout = this.current.queueTimeoutMs;
    const oldest = this.arrivals?.head ?? null;
    if (this.timer !== null || timeout === 0 || oldest === null || this.closed) return;
    const clock = this.options.clock;
    this.timer = clock.setTimer(() => this.expire(), Math.max(0, oldest.since + timeout - clock.now()));
  }

  private disarmTimeout(): void {
    if (this.timer !== null) this.options.clock.clearTimer(this.timer);
    this.timer = null;
  }

  private expire(): void {
    this.timer = null;
    const timeout = this.current.queueTimeoutMs;
    const now = this.options.clock.now();
    if (timeout > 0) {
      for (let t = this.arrivals!.head; t !== null && t.since + timeout <= now; t = this.arrivals!.head) this.drop(t, 'queue_timeout');
    }
    this.armTimeout();
  }
}

function describeCaps(state: CapState, t: Ticket): string {
  return blockersOf(state, t)
    .map((b) => `${b.cap} ${b.limit}${b.scope ? ` of ${b.scope}` : ''}`)
    .join(', ');
}

/** How a start is refused: no slot and REJECT, a full queue, or not now at all. */
type Refusal = 'RATE_LIMITED' | 'QUEUE_FULL' | 'UNAVAILABLE';

function refusal(code: Refusal, message: string): Error {
  switch (code) {
    case 'RATE_LIMITED':
      return new RateLimitedError(message, RETRY_AFTER_SECONDS);
    case 'QUEUE_FULL':
      return new QueueFullError(message, RETRY_AFTER_SECONDS);
    case 'UNAVAILABLE':
      return new UnavailableError(message);
    default:
      return assertNever(code);
  }
}
