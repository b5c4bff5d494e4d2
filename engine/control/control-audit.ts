import { SCHEDULER_RUN, type AuditType, type ControlCommand } from '../../shared/api/control.schema';
import { RefusedError } from '../engine-errors';
import type { UnnumberedEvent } from '../../shared/events/events';
import type { Clock } from '../runtime/clock';
import type { SchedulerCommand, SchedulerCommandGate } from '../scheduler/scheduler-commands';
import type { ExecutionLog } from '../store/execution-log';
import { reviewInOrder, type ControlReviewer } from './reviewers';

export interface ControlAuditOptions {
  clock: Clock;
  /** Where audit rows go. */
  log: ExecutionLog;
  /** Reviewers, in order (CTL-06). */
  reviewers: readonly ControlReviewer[];
  /** Publishes each audit row on the event feed (a CONTROL event). */
  emit(event: UnnumberedEvent): void;
}

/**
 * The reviewers and the audit trail of commands (CTL-01, CTL-06), shared by the command pipeline and the
 * scheduler's gate (ADM-03): a review refuses (RefusedError, FORBIDDEN on the wire) and audits CONTROL_REJECTED; an applied
 * command is audited CONTROL_APPLIED. Events published while a command is applied are that actor's own
 * outcome (`applyingActor`: supervisors never see theirs, CTL-07).
 */
export class ControlAudit {
  /** Refusals the scheduler gate has audited already, so the pipeline does not audit them twice. */
  private readonly gateAudited = new WeakSet<object>();
  private applying: string | null = null;
  /** Refusals per reviewer id (reported by `supervisors.list`). */
  readonly refusals = new Map<string, number>();

  constructor(private readonly options: ControlAuditOptions) {}

  get reviewers(): readonly ControlReviewer[] {
    return this.options.reviewers;
  }

  get log(): ExecutionLog {
    return this.options.log;
  }

  /** The actor whose command is being applied at this instant. */
  get applyingActor(): string | null {
    return this.applying;
  }

  /** Runs `apply` with the events it publishes synchronously attributed to `actor`. */
  asActor<T>(actor: string, apply: () => T): T {
    this.applying = actor;
    try {
      return apply();
    } finally {
      this.applying = null;
    }
  }

  /** Asks the reviewers in order; the first refusal is counted, audited and thrown (FORBIDDEN). */
  async review(executionId: string, command: ControlCommand, actor: string, fromGate = false): Promise<void> {
    const refusal = await reviewInOrder(this.options.reviewers, { executionId, command, actor });
    if (refusal === null) return;
    this.refusals.set(refusal.by, (this.refusals.get(refusal.by) ?? 0) + 1);
    await this.record(executionId, 'CONTROL_REJECTED', `${command.type}: ${refusal.reason}`, actor);
    const error = new RefusedError(`${command.type} refused: ${refusal.reason}`);
    if (fromGate) this.gateAudited.add(error);
    throw error;
  }

  /** True for a refusal the scheduler's gate audited already. */
  audited(error: unknown): boolean {
    return error instanceof Object && this.gateAudited.has(error);
  }

  /** One audit row (with what the command's handler gave it to keep), published as a CONTROL event and appended to the log. */
  async record(runId: string, type: AuditType, status: string, actor: string, at = this.options.clock.now(), data?: unknown): Promise<void> {
    this.asActor(actor, () => this.options.emit({ type: 'CONTROL', executionId: runId, at, outcome: type, status, actor }));
    await this.options.log.append({ runId, type, status, actor, at, ...(data === undefined ? {} : { data }) });
  }

  /** The scheduler's gate (ADM-03): limit and priority changes pass the reviewers and are audited. */
  schedulerGate(): SchedulerCommandGate {
    return {
      review: async (command, actor) => {
        await this.review(runOf(command), toControlCommand(command), actor, true);
      },
      audit: (command, actor, at) => {
        void this.record(runOf(command), 'CONTROL_APPLIED', command.type, actor, at);
      },
    };
  }
}

function runOf(command: SchedulerCommand): string {
  return command.type === 'SetLimits' ? SCHEDULER_RUN : command.executionId;
}

function toControlCommand(command: SchedulerCommand): ControlCommand {
  return command.type === 'SetLimits' ? { type: 'SetLimits', limits: command.limits } : { type: 'SetPriority', priority: command.priority };
}
