import type { Approval, SignalDecision, SignalOutcome } from '../../../shared/api/control.schema';
import { ConflictError } from '../../engine-errors';
import type { UnnumberedEvent } from '../../../shared/events/events';
import type { SignalAnswer } from '../../plugins/contract';
import type { Clock } from '../../runtime/clock';
import { signalNodeId, type CheckpointStore } from '../../store/checkpoint-store';

/** How long a signal for a node that is not waiting yet is kept (CTL-05): ten minutes. */
export const SIGNAL_QUEUE_TTL_MS = 10 * 60_000;
/** Most signals kept waiting for their node at once (CTL-05). */
export const MAX_QUEUED_SIGNALS = 100;

export interface SignalHubOptions {
  clock: Clock;
  checkpoints: CheckpointStore;
  emit(event: UnnumberedEvent): void;
  queueTtlMs?: number;
  maxQueued?: number;
}

/** Where a waiting message is: its run, workflow and node. */
export interface WaitSite {
  readonly executionId: string;
  readonly session: string;
  readonly workflowId: string;
  readonly nodeId: string;
}

export interface SignalDelivery {
  decision: SignalDecision;
  data?: unknown;
  actor: string;
}

interface OpenWait {
  approval: Approval;
  answer(delivery: SignalDelivery): void;
}

interface QueuedSignal {
  delivery: SignalDelivery;
  at: number;
  expiresAt: number;
}

const keyOf = (executionId: string, nodeId: string): string => `${executionId}\u0000${nodeId}`;

/**
 * The signal waits of every run (CTL-05): one list of open approvals, oldest first, serving the inbox,
 * REST and the node view. A node processes one message at a time, so a run's node has at most one open
 * wait; a signal for a node not waiting yet is queued (ten minutes, at most 100 at once). Answers are
 * recorded as checkpoints of pseudo node `signal:<node>`, keyed by message id, so a resumed run reuses
 * them instead of waiting again (a timeout is not recorded).
 */
export class SignalHub {
  private readonly open = new Map<string, OpenWait>();
  private readonly queued = new Map<string, QueuedSignal[]>();
  private queuedCount = 0;
  private readonly ttlMs: number;
  private readonly maxQueued: number;

  constructor(private readonly options: SignalHubOptions) {
    this.ttlMs = options.queueTtlMs ?? SIGNAL_QUEUE_TTL_MS;
    this.maxQueued = options.maxQueued ?? MAX_QUEUED_SIGNALS;
  }

  /** Waits for the node's signal for one message; rejects with the abort reason when `abort` fires. */
  async wait(node: WaitSite, request: { signal: string; messageId: string; payload: unknown }, abort: AbortSignal): Promise<SignalAnswer> {
    // Copied field by field: a node stage exposes these as getters, which a spread would not copy.
    const site: WaitSite = { executionId: node.executionId, session: node.session, workflowId: node.workflowId, nodeId: node.nodeId };
    const recorded = await this.recorded(site, request.messageId);
    if (recorded) return recorded;
    return this.waitLive(site, request, abort);
  }

  /** No recorded answer: a signal queued early, or an open approval until one arrives or `abort` fires. */
  private waitLive(site: WaitSite, request: { signal: string; messageId: string; payload: unknown }, abort: AbortSignal): Promise<SignalAnswer> {
    const key = keyOf(site.executionId, site.nodeId);
    const early = this.takeQueued(key);
    if (early) return Promise.resolve(this.accept(site, request, early.delivery, early.at));
    if (abort.aborted) return Promise.reject(abort.reason);
    return new Promise<SignalAnswer>((resolve, reject) => {
      const approval: Approval = { ...site, signal: request.signal, messageId: request.messageId, payload: request.payload, since: this.options.clock.now() };
      const onAbort = (): void => {
        if (this.open.get(key)?.approval !== approval) return;
        this.open.delete(key);
        this.announce(approval, 'CLOSED', 'ABANDONED');
        reject(abort.reason);
      };
      this.open.set(key, {
        approval,
        answer: (delivery) => {
          abort.removeEventListener('abort', onAbort);
          this.open.delete(key);
          resolve(this.accept(site, request, delivery, this.options.clock.now()));
        },
      });
      abort.addEventListener('abort', onAbort, { once: true });
      this.announce(approval, 'OPEN');
    });
  }

  /** Delivers a signal to a registered node: ACCEPTED when a message waits there, else QUEUED. */
  deliver(executionId: string, nodeId: string, delivery: SignalDelivery): SignalOutcome {
    const key = keyOf(executionId, nodeId);
    const waiting = this.open.get(key);
    if (waiting) {
      waiting.answer(delivery);
      return 'ACCEPTED';
    }
    this.pruneExpired();
    if (this.queuedCount >= this.maxQueued) {
      throw new ConflictError(`${this.maxQueued} signals already wait for their nodes; node "${nodeId}" is not waiting yet`, 'command.nodeId');
    }
    const now = this.options.clock.now();
    const list = this.queued.get(key) ?? [];
    list.push({ delivery, at: now, expiresAt: now + this.ttlMs });
    this.queued.set(key, list);
    this.queuedCount++;
    return 'QUEUED';
  }

  /** Open approvals, oldest first. */
  list(filter: { executionId?: string | undefined; limit?: number } = {}): Approval[] {
    const out: Approval[] = [];
    for (const { approval } of this.open.values()) {
      if (filter.executionId !== undefined && approval.executionId !== filter.executionId) continue;
      out.push({ ...approval });
      if (filter.limit !== undefined && out.length >= filter.limit) break;
    }
    return out;
  }

  /** The open approval of a node, if a message waits there. */
  openAt(executionId: string, nodeId: string): Approval | null {
    return this.open.get(keyOf(executionId, nodeId))?.approval ?? null;
  }

  /** Forgets the queued signals of a run that ended. */
  forgetRun(executionId: string): void {
    for (const [key, list] of this.queued) {
      if (key.startsWith(`${executionId}\u0000`)) {
        this.queued.delete(key);
        this.queuedCount -= list.length;
      }
    }
  }

  get queuedSignals(): number {
    this.pruneExpired();
    return this.queuedCount;
  }

  private accept(site: WaitSite, request: { signal: string; messageId: string }, delivery: SignalDelivery, at: number): SignalAnswer {
    const answer: SignalAnswer = { name: request.signal, decision: delivery.decision === 'APPROVE' ? 'APPROVED' : 'REJECTED', actor: delivery.actor, at };
    if (delivery.data !== undefined) answer.data = delivery.data;
    this.options.checkpoints.append(site.executionId, signalNodeId(site.nodeId), {
      port: 'signal',
      payload: answer,
      metadata: {},
      messageId: request.messageId,
    });
    this.announce({ ...site, signal: request.signal, messageId: request.messageId, payload: undefined, since: at }, 'CLOSED', answer.decision);
    return answer;
  }

  private async recorded(site: WaitSite, messageId: string): Promise<SignalAnswer | null> {
    const checkpoint = await this.options.checkpoints.read(site.executionId, signalNodeId(site.nodeId));
    const found = checkpoint?.messages.find((m) => m.messageId === messageId);
    return found ? (found.payload as SignalAnswer) : null;
  }

  private takeQueued(key: string): QueuedSignal | null {
    this.pruneExpired();
    const list = this.queued.get(key);
    if (!list?.length) return null;
    const first = list.shift()!;
    this.queuedCount--;
    if (list.length === 0) this.queued.delete(key);
    return first;
  }

  private pruneExpired(): void {
    if (this.queuedCount === 0) return;
    const now = this.options.clock.now();
    for (const [key, list] of this.queued) {
      const kept = list.filter((q) => q.expiresAt > now);
      this.queuedCount -= list.length - kept.length;
      if (kept.length) this.queued.set(key, kept);
      else this.queued.delete(key);
    }
  }

  private announce(approval: Approval, state: 'OPEN' | 'CLOSED', decision?: 'APPROVED' | 'REJECTED' | 'ABANDONED'): void {
    const event: UnnumberedEvent = {
      type: 'APPROVAL',
      executionId: approval.executionId,
      at: this.options.clock.now(),
      nodeId: approval.nodeId,
      signal: approval.signal,
      messageId: approval.messageId,
      state,
    };
    if (decision) event.decision = decision;
    this.options.emit(event);
  }
}
