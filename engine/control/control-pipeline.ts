import { PSEUDO_RUNS, SCHEDULER_RUN, SETTINGS_RUN, type AuditType, type ControlCommand, type ControlCommandType, type ControlResult } from '../../shared/api/control.schema';
import { StudioApiError } from '../../shared/api/errors';
import type { UnnumberedEvent } from '../../shared/events/events';
import type { Clock } from '../runtime/clock';
import type { WorkflowRun } from '../runtime/workflow-run';
import type { SchedulerCommand, SchedulerCommandGate } from '../scheduler/scheduler-commands';
import type { ExecutionLog } from '../store/execution-log';
import type { CommandHandler, CommandOutcome, CommandTable, CommandTarget, ControlServices } from './command-handler';
import { CommandSequencer } from './command-sequencer';
import { COMMAND_HANDLERS, GATED_COMMANDS } from './commands';
import { reviewInOrder, type ControlReviewer } from './reviewers';

export interface ControlPipelineOptions {
  clock: Clock;
  log: ExecutionLog;
  reviewers: readonly ControlReviewer[];
  services: ControlServices;
  liveRun(executionId: string): WorkflowRun | undefined;
  /** Publishes the audit row on the event feed (a CONTROL event). */
  emit(event: UnnumberedEvent): void;
  /** The handler table; tests may wrap it. */
  handlers?: CommandTable;
}

/**
 * The one path of every change to a run (CTL-01): UI, IPC, REST, CLI and supervisors send commands here.
 * Per run, commands are applied in arrival order (runs are independent) and the caller is answered once
 * its command is applied. Each command for a known run passes the reviewers (CTL-06), its handler, and is
 * audited CONTROL_APPLIED (status = command name) or CONTROL_REJECTED (`command: reason`) with the actor;
 * a command for an unknown run is refused NOT_FOUND and not recorded.
 */
export class ControlPipeline {
  private readonly sequencer = new CommandSequencer();
  private readonly handlers: CommandTable;
  /** Errors the scheduler gate has audited already, so the pipeline does not audit them twice. */
  private readonly gateAudited = new WeakSet<object>();
  private applying: string | null = null;
  /** Refusals per reviewer id (reported by `supervisors.list`). */
  readonly refusals = new Map<string, number>();

  constructor(private readonly options: ControlPipelineOptions) {
    this.handlers = options.handlers ?? COMMAND_HANDLERS;
  }

  /** The actor whose command is being applied at this instant: events it causes are its own outcome (CTL-07). */
  get applyingActor(): string | null {
    return this.applying;
  }

  /** Applies a command in its run's order; resolves with the answer once applied, rejects with the refusal. */
  send(executionId: string, command: ControlCommand, actor: string): Promise<ControlResult> {
    const key = command.type === 'SetLimits' ? SCHEDULER_RUN : command.type === 'SetSetting' ? SETTINGS_RUN : executionId;
    return this.sequencer.run(key, () => this.apply(executionId, command, actor));
  }

  /** The scheduler's gate (ADM-03): limit and priority changes pass the reviewers and are audited. */
  schedulerGate(): SchedulerCommandGate {
    return {
      review: async (command, actor) => {
        const executionId = command.type === 'SetLimits' ? SCHEDULER_RUN : command.executionId;
        await this.review(executionId, toControlCommand(command), actor, true);
      },
      audit: (command, actor, at) => {
        const executionId = command.type === 'SetLimits' ? SCHEDULER_RUN : command.executionId;
        void this.audit(executionId, 'CONTROL_APPLIED', command.type, actor, at);
      },
    };
  }

  private async apply(executionId: string, command: ControlCommand, actor: string): Promise<ControlResult> {
    if (!PSEUDO_RUNS.has(executionId) && this.options.services.runStatus(executionId) === null) {
      throw new StudioApiError('NOT_FOUND', `run "${executionId}" does not exist`, 'executionId');
    }
    const gated = GATED_COMMANDS.has(command.type);
    if (!gated) await this.review(executionId, command, actor, false);
    const target: CommandTarget = { executionId, actor, run: this.options.liveRun(executionId) ?? null, services: this.options.services };
    let outcome: CommandOutcome | void;
    try {
      outcome = await this.invoke(command, target);
    } catch (error) {
      if (!(error instanceof Object && this.gateAudited.has(error))) {
        await this.audit(executionId, 'CONTROL_REJECTED', `${command.type}: ${error instanceof Error ? error.message : String(error)}`, actor);
      }
      throw error;
    }
    const at = this.options.clock.now();
    const { auditData, ...answer } = outcome ?? {};
    if (!gated) await this.audit(executionId, 'CONTROL_APPLIED', command.type, actor, at, auditData);
    return { executionId, command: command.type, at, ...answer };
  }

  /** Runs the handler; events published while it runs synchronously are attributed to the actor. */
  private invoke(command: ControlCommand, target: CommandTarget): CommandOutcome | void | Promise<CommandOutcome | void> {
    const handler = this.handlers[command.type] as CommandHandler<ControlCommandType>;
    this.applying = target.actor;
    try {
      return handler(command as never, target);
    } finally {
      this.applying = null;
    }
  }

  private async review(executionId: string, command: ControlCommand, actor: string, fromGate: boolean): Promise<void> {
    const refusal = await reviewInOrder(this.options.reviewers, { executionId, command, actor });
    if (refusal === null) return;
    this.refusals.set(refusal.by, (this.refusals.get(refusal.by) ?? 0) + 1);
    await this.audit(executionId, 'CONTROL_REJECTED', `${command.type}: ${refusal.reason}`, actor);
    const error = new StudioApiError('FORBIDDEN', `${command.type} refused: ${refusal.reason}`);
    if (fromGate) this.gateAudited.add(error);
    throw error;
  }

  private async audit(runId: string, type: AuditType, status: string, actor: string, at = this.options.clock.now(), data?: unknown): Promise<void> {
    this.applying = actor;
    try {
      this.options.emit({ type: 'CONTROL', executionId: runId, at, outcome: type, status, actor });
    } finally {
      this.applying = null;
    }
    await this.options.log.append({ runId, type, status, actor, at, ...(data === undefined ? {} : { data }) });
  }
}

function toControlCommand(command: SchedulerCommand): ControlCommand {
  return command.type === 'SetLimits' ? { type: 'SetLimits', limits: command.limits } : { type: 'SetPriority', priority: command.priority };
}
