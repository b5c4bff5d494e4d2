import { StudioApiError, type ApiErrorCode } from '../../shared/api/errors';
import { DEFAULT_SCHEDULER_LIMITS, LIMIT_SETTING_NAMES, REJECT_REASONS, type RejectReason, type SchedulerLimits, type SchedulerLimitsPatch } from '../../shared/api/scheduler.schema';
import type { Clock, TimerHandle } from '../runtime/clock';
import { FairQueue } from './fair-queue';
import { ArrivalList, QueuedStart, Slot, type AdmissionRequest, type DropReason, type SlotHolder } from './admission-types';
import { blockersOf, type CapState } from './queue-explain';

export { Slot, type AdmissionRequest, type DropReason };

/** `Retry-After` of a refused start: a rough hint, since how long a slot stays taken is the workflow's business. */
export const RETRY_AFTER_SECONDS = 1;

export interface AdmissionSchedulerOptions {
  clock: Clock;
  limits?: SchedulerLimitsPatch | undefined;
  /** False on a standby server of a high-availability pair: every start is refused (`not_leader`). */
  isLeader?: (() => boolean) | undefined;
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
export class AdmissionScheduler implements CapState {
  private current: SchedulerLimits;
  private readonly queue = new FairQueue<QueuedStart>();
  private readonly waiting = new Map<string, QueuedStart>();
  private readonly arrivals = new ArrivalList();
  readonly holders = new Map<string, Slot>();
  readonly runningByWorkflow = new Map<string, number>();
  readonly runningBySession = new Map<string, number>();
  readonly queuedByWorkflow = new Map<string, number>();
  readonly queuedBySession = new Map<string, number>();
  private readonly rejected = Object.fromEntries(REJECT_REASONS.map((r) => [r, 0])) as Record<RejectReason, number>;
  private nextSeq = 1;
  private timer: TimerHandle | null = null;
  private closed = false;
  private pumping = false;
  private pumpAgain = false;

  constructor(private readonly options: AdmissionSchedulerOptions) {
    this.current = { ...DEFAULT_SCHEDULER_LIMITS, ...options.limits };
  }

  get limits(): SchedulerLimits {
    return { ...this.current };
  }

  /** Gauge `yukta.executions.running`: starts holding a slot. */
  get runningCount(): number {
    return this.holders.size;
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

  /**
   * Decides a start: a slot now (`slot` set), a place in the queue (`slot` null; `request.granted` is
   * called when the slot comes), or a refusal (throws RATE_LIMITED, QUEUE_FULL or UNAVAILABLE). `newId` is
   * called only once the slot or the queue place is taken, so a refused start never gets an id.
   */
  admit(request: AdmissionRequest, newId: () => string): { executionId: string; slot: Slot | null } {
    if (this.options.isLeader && !this.options.isLeader()) this.refuse('not_leader', 'UNAVAILABLE', 'this server is a standby; start the run on the leader');
    if (this.closed) this.refuse('shutdown', 'UNAVAILABLE', 'the server is shutting down and admits no new runs');
    const holder: SlotHolder = { session: request.session, workflowId: request.workflowId, workflowKey: workflowKeyOf(request.session, request.workflowId), priority: request.priority, fairnessKey: fairnessKeyOf(request), fairnessWeight: request.fairnessWeight };
    if (this.fits(holder)) {
      const slot = this.takeSlot(holder);
      slot.executionId = newId();
      this.holders.set(slot.executionId, slot);
      return { executionId: slot.executionId, slot };
    }
    this.checkQueueRoom(holder);
    const entry = new QueuedStart(this.nextSeq++, holder, request, this.options.clock.now());
    entry.executionId = newId();
    this.enqueue(entry);
    return { executionId: entry.executionId, slot: null };
  }

  /** True while the start waits in the queue. */
  isQueued(executionId: string): boolean {
    return this.waiting.has(executionId);
  }

  /** Takes a waiting start out of the queue (the caller cancelled it); false when it is not waiting. */
  withdraw(executionId: string): boolean {
    const entry = this.waiting.get(executionId);
    if (!entry) return false;
    this.drop(entry, 'cancelled');
    return true;
  }

  /** Moves a waiting start to another priority, keeping its arrival; returns its new 1-based position, or null when it is not waiting. */
  setPriority(executionId: string, priority: number): number | null {
    const entry = this.waiting.get(executionId);
    if (!entry) return null;
    this.queue.remove(entry);
    entry.priority = entry.holder.priority = priority;
    this.queue.push(entry);
    return this.queue.ordered().indexOf(entry) + 1;
  }

  /** Applies a change of limits at once: a raised cap admits waiting starts; a lowered one stops no running run. */
  setLimits(patch: SchedulerLimitsPatch): SchedulerLimits {
    this.current = { ...this.current, ...patch };
    this.disarmTimeout();
    this.armTimeout();
    this.pump();
    return this.limits;
  }

  /** Shutdown (ADM-01): nothing new is admitted and every waiting start is refused. */
  close(): void {
    this.closed = true;
    this.disarmTimeout();
    for (let e = this.arrivals.head; e !== null; e = this.arrivals.head) this.drop(e, 'shutdown');
  }

  /** Waiting starts in admission order (the first `limit`). */
  queued(limit = Infinity): QueuedStart[] {
    return this.queue.ordered(limit);
  }

  /** The caps that hold a waiting start back right now (empty when none does). */
  blockersOf(entry: QueuedStart) {
    return blockersOf(this, entry.holder);
  }

  private fits(h: SlotHolder): boolean {
    const l = this.current;
    return (
      (l.maxConcurrent === 0 || this.holders.size < l.maxConcurrent) &&
      (l.maxConcurrentPerWorkflow === 0 || (this.runningByWorkflow.get(h.workflowKey) ?? 0) < l.maxConcurrentPerWorkflow) &&
      (l.maxConcurrentPerSession === 0 || (this.runningBySession.get(h.session) ?? 0) < l.maxConcurrentPerSession)
    );
  }

  private checkQueueRoom(h: SlotHolder): void {
    const l = this.current;
    if (l.onLimit === 'REJECT') this.refuse('limit', 'RATE_LIMITED', `no slot is free (${describeCaps(this, h)}) and ${LIMIT_SETTING_NAMES.onLimit} is REJECT`);
    if (this.queue.size >= l.queueCapacity) this.refuse('queue_full', 'QUEUE_FULL', `no slot is free and the queue is full (${LIMIT_SETTING_NAMES.queueCapacity} ${l.queueCapacity})`);
    if (l.queueCapacityPerWorkflow > 0 && (this.queuedByWorkflow.get(h.workflowKey) ?? 0) >= l.queueCapacityPerWorkflow) {
      this.refuse('workflow_queue_full', 'QUEUE_FULL', `no slot is free and workflow "${h.workflowId}" already has ${l.queueCapacityPerWorkflow} waiting (${LIMIT_SETTING_NAMES.queueCapacityPerWorkflow})`);
    }
  }

  private refuse(reason: RejectReason, code: ApiErrorCode, message: string): never {
    this.rejected[reason]++;
    throw new StudioApiError(code, `start refused: ${message}`, undefined, undefined, code === 'UNAVAILABLE' ? undefined : RETRY_AFTER_SECONDS);
  }

  private takeSlot(h: SlotHolder): Slot {
    add(this.runningByWorkflow, h.workflowKey, 1);
    add(this.runningBySession, h.session, 1);
    return new Slot(h, this.options.clock.now(), (slot) => this.release(slot));
  }

  private release(slot: Slot): void {
    this.holders.delete(slot.executionId);
    add(this.runningByWorkflow, slot.holder.workflowKey, -1);
    add(this.runningBySession, slot.holder.session, -1);
    this.pump();
  }

  private enqueue(entry: QueuedStart): void {
    this.queue.push(entry);
    this.waiting.set(entry.executionId, entry);
    this.arrivals.append(entry);
    add(this.queuedByWorkflow, entry.holder.workflowKey, 1);
    add(this.queuedBySession, entry.holder.session, 1);
    this.armTimeout();
  }

  /** Takes an entry out of every index; `admitted` moves its fairness key's virtual time on. */
  private dequeue(entry: QueuedStart, admitted: boolean): void {
    if (admitted) this.queue.admit(entry);
    else this.queue.remove(entry);
    this.waiting.delete(entry.executionId);
    this.arrivals.remove(entry);
    add(this.queuedByWorkflow, entry.holder.workflowKey, -1);
    add(this.queuedBySession, entry.holder.session, -1);
  }

  private drop(entry: QueuedStart, reason: DropReason): void {
    this.dequeue(entry, false);
    if (reason !== 'cancelled') this.rejected[reason]++;
    this.callback(() => entry.request.dropped(reason));
  }

  /** Admits waiting starts while a slot is free; re-entrant calls (a grant that releases) loop here instead. */
  private pump(): void {
    if (this.pumping) return void (this.pumpAgain = true);
    this.pumping = true;
    try {
      do {
        this.pumpAgain = false;
        while (!this.closed && this.queue.size > 0 && (this.current.maxConcurrent === 0 || this.holders.size < this.current.maxConcurrent)) {
          const perCaps = this.current.maxConcurrentPerWorkflow > 0 || this.current.maxConcurrentPerSession > 0;
          const next = perCaps ? this.queue.find((e) => this.fits(e.holder)) : this.queue.peek();
          if (next === null) break;
          this.grant(next);
        }
      } while (this.pumpAgain);
    } finally {
      this.pumping = false;
    }
  }

  private grant(entry: QueuedStart): void {
    this.dequeue(entry, true);
    const slot = this.takeSlot(entry.holder);
    slot.executionId = entry.executionId;
    this.holders.set(slot.executionId, slot);
    if (!this.callback(() => entry.request.granted(slot))) slot.release();
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

  /** One timer for the whole queue: the oldest waiting start times out first (arrival order = deadline order). */
  private armTimeout(): void {
    const timeout = this.current.queueTimeoutMs;
    const oldest = this.arrivals.head;
    if (this.timer !== null || timeout === 0 || oldest === null || this.closed) return;
    const clock = this.options.clock;
    this.timer = clock.setTimer(() => this.expire(), Math.max(0, oldest.enqueuedAt + timeout - clock.now()));
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
      for (let e = this.arrivals.head; e !== null && e.enqueuedAt + timeout <= now; e = this.arrivals.head) this.drop(e, 'queue_timeout');
    }
    this.armTimeout();
  }
}

function add(map: Map<string, number>, key: string, delta: number): void {
  const next = (map.get(key) ?? 0) + delta;
  if (next === 0) map.delete(key);
  else map.set(key, next);
}

export function workflowKeyOf(session: string, workflowId: string): string {
  return `${session}/${workflowId}`;
}

/** Without `yukta.fairnessKey` the session is the key (weight 1 unless the start names one). */
export function fairnessKeyOf(request: { session: string; fairnessKey?: string | undefined }): string {
  return request.fairnessKey ?? `session:${request.session}`;
}

function describeCaps(state: CapState, h: SlotHolder): string {
  return blockersOf(state, h).map((b) => `${b.cap} ${b.limit}${b.scope ? ` of ${b.scope}` : ''}`).join(', ');
}
