import { ConflictError, NotFoundError } from '../engine-errors';
import { SchedulerLimits, type SchedulerLimitsPatch, type SchedulerView, type SetPriorityResult } from '../../shared/api/scheduler.schema';
import type { Status } from '../../shared/status/status';
import type { Clock } from '../runtime/clock';
import type { AdmissionScheduler } from './admission-scheduler';
import type { Ticket } from './admission-types';
import { ACCEPT_ALL, type SchedulerCommand, type SchedulerCommandGate } from './scheduler-commands';
import { MemorySchedulerLog, SCHEDULER_RUN_ID, type SchedulerLog } from './scheduler-log';
import { schedulerView } from './scheduler-view';

export interface SchedulerServiceOptions {
  scheduler: AdmissionScheduler;
  clock: Clock;
  log?: SchedulerLog | undefined;
  gate?: SchedulerCommandGate | undefined;
  /** The status of a run the tracker knows, or null (to tell "not waiting" from "no such run"). */
  statusOf(executionId: string): Status | null;
  /** The ticket of a start waiting QUEUED (the launcher keeps them by id), or null. */
  queuedTicket(executionId: string): Ticket | null;
}

/**
 * The operator's side of the scheduler (ADM-03): reads the view, changes limits live (reviewed, applied,
 * recorded under run id `scheduler`, audited) and moves a waiting start to another priority. At startup
 * the newest recorded limits are re-applied (`ready`).
 */
export class SchedulerService {
  /** Settles once the newest recorded limits are applied; starts and changes wait for it. */
  readonly ready: Promise<void>;
  private readonly log: SchedulerLog;
  private readonly gate: SchedulerCommandGate;
  private latest: { actor: string; at: number } | null = null;

  constructor(private readonly options: SchedulerServiceOptions) {
    this.log = options.log ?? new MemorySchedulerLog();
    this.gate = options.gate ?? ACCEPT_ALL;
    this.ready = this.restore();
  }

  async view(limit: number): Promise<SchedulerView> {
    await this.ready;
    return schedulerView(this.options.scheduler, limit);
  }

  async setLimits(patch: SchedulerLimitsPatch, actor: string): Promise<SchedulerLimits> {
    await this.ready;
    const command: SchedulerCommand = { type: 'SetLimits', limits: patch };
    await this.gate.review(command, actor);
    const limits = this.options.scheduler.setLimits(patch);
    const at = this.options.clock.now();
    await this.log.append({ type: 'SetLimits', runId: SCHEDULER_RUN_ID, patch, limits, actor, at });
    this.latest = { actor, at };
    this.gate.audit(command, actor, at);
    return limits;
  }

  /** Who recorded the limits in force and when (re-applied at boot, or changed since); null while they are the configured ones. */
  async loggedChange(): Promise<{ actor: string; at: number } | null> {
    await this.ready;
    return this.latest;
  }

  /** Refused unless the run is waiting: CONFLICT for a run in another state, NOT_FOUND for an unknown one. */
  async setPriority(executionId: string, priority: number, actor: string): Promise<SetPriorityResult> {
    await this.ready;
    this.waitingTicket(executionId);
    const command: SchedulerCommand = { type: 'SetPriority', executionId, priority };
    await this.gate.review(command, actor);
    const ticket = this.waitingTicket(executionId); // the review may have taken a while
    const position = this.options.scheduler.setPriority(ticket, priority)!;
    this.gate.audit(command, actor, this.options.clock.now());
    return { executionId, priority, position };
  }

  private waitingTicket(executionId: string): Ticket {
    const ticket = this.options.queuedTicket(executionId);
    if (ticket?.state === 'queued') return ticket;
    const status = this.options.statusOf(executionId);
    if (status === null) throw new NotFoundError(`run "${executionId}" does not exist`, 'executionId');
    throw new ConflictError(`run "${executionId}" is ${status}, not QUEUED: only a waiting start's priority can change`, 'executionId');
  }

  private async restore(): Promise<void> {
    const latest = await this.log.latestLimits();
    if (!latest) return;
    this.options.scheduler.setLimits(SchedulerLimits.parse(latest.limits));
    this.latest = { actor: latest.actor, at: latest.at };
  }
}
