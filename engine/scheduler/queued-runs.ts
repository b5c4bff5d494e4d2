import type { ErrorInfo, UnnumberedEvent } from '../../shared/events/events';
import { LIMIT_SETTING_NAMES } from '../../shared/api/scheduler.schema';
import type { Status } from '../../shared/status/status';
import type { Clock } from '../runtime/clock';
import type { PreparedWorkflow } from '../runtime/prepared-workflow';
import type { DropReason, Ticket } from './admission-types';

interface Waiting {
  ticket: Ticket;
  session: string;
  workflowId: string;
  version: string;
  done: Promise<Status>;
  resolve(status: Status | Promise<Status>): void;
}

/** How a start that never got a slot ends. */
const DROPPED: { [K in DropReason]: { status: Status; error?: ErrorInfo } } = {
  queue_timeout: {
    status: 'TIMED_OUT',
    error: { name: 'QueueTimeoutError', code: 'QUEUE_TIMEOUT', message: `waited for a slot longer than ${LIMIT_SETTING_NAMES.queueTimeoutMs}; it never ran` },
  },
  shutdown: { status: 'CANCELLED', error: { name: 'StartRefused', code: 'SHUTDOWN', message: 'the server shut down before a slot was free; it never ran' } },
  cancelled: { status: 'CANCELLED' },
};

/**
 * Starts that wait with status QUEUED (ADM-01). Each has its execution id and is announced like a run
 * (EXECUTION_STATUS PENDING with its node ids, then QUEUED), so the run list, `runs.get` and the scheduler
 * panel show it; no run object exists until its slot is granted.
 */
export class QueuedRuns {
  private readonly waiting = new Map<string, Waiting>();

  constructor(
    private readonly clock: Clock,
    private readonly emit: (event: UnnumberedEvent) => void,
  ) {}

  get size(): number {
    return this.waiting.size;
  }

  announce(ticket: Ticket, prepared: PreparedWorkflow): void {
    const { executionId, session } = ticket;
    let resolve!: Waiting['resolve'];
    const done = new Promise<Status>((r) => (resolve = r));
    const entry: Waiting = { ticket, session, workflowId: prepared.definition.workflowId, version: prepared.version, done, resolve };
    this.waiting.set(executionId, entry);
    this.status(executionId, entry, 'PENDING', undefined, prepared.nodeIds);
    this.status(executionId, entry, 'QUEUED');
  }

  /** The slot came and the run exists: waiting on the start now waits on the run. */
  started(executionId: string, runDone: Promise<Status>): void {
    const entry = this.waiting.get(executionId);
    if (!entry) return;
    this.waiting.delete(executionId);
    entry.resolve(runDone);
  }

  /** The start ends without running: timed out, refused at shutdown, cancelled, or its run could not be built. */
  end(executionId: string, reason: DropReason | { status: Status; error: ErrorInfo }): void {
    const entry = this.waiting.get(executionId);
    if (!entry) return;
    this.waiting.delete(executionId);
    const { status, error } = typeof reason === 'string' ? DROPPED[reason] : reason;
    this.status(executionId, entry, status, error);
    entry.resolve(status);
  }

  /** The scheduler's ticket of a waiting start (to cancel or re-prioritise it). */
  ticket(executionId: string): Ticket | null {
    return this.waiting.get(executionId)?.ticket ?? null;
  }

  wait(executionId: string): Promise<Status> | null {
    return this.waiting.get(executionId)?.done ?? null;
  }

  hasSession(session: string): boolean {
    for (const w of this.waiting.values()) if (w.session === session) return true;
    return false;
  }

  private status(executionId: string, w: Waiting, status: Status, error?: ErrorInfo, nodeIds?: readonly string[]): void {
    const event: UnnumberedEvent = {
      type: 'EXECUTION_STATUS',
      executionId,
      at: this.clock.now(),
      session: w.session,
      workflowId: w.workflowId,
      definitionVersion: w.version,
      status,
    };
    if (error) event.error = error;
    if (nodeIds) event.nodeIds = nodeIds as string[];
    this.emit(event);
  }
}
