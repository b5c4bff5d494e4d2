import { PSEUDO_RUNS, SCHEDULER_RUN, SETTINGS_RUN, type ControlCommand, type ControlCommandType, type ControlResult } from '../../shared/api/control.schema';
import { NotFoundError } from '../engine-errors';
import type { Clock } from '../runtime/clock';
import type { WorkflowRun } from '../runtime/workflow-run';
import type { CommandHandler, CommandOutcome, CommandTable, CommandTarget, ControlServices } from './command-handler';
import { CommandSequencer } from './command-sequencer';
import { COMMAND_HANDLERS, GATED_COMMANDS } from './commands';
import type { ControlAudit } from './control-audit';

export interface ControlPipelineOptions {
  /** Reviewers and audit rows (CTL-06), shared with the scheduler's gate. */
  audit: ControlAudit;
  clock: Clock;
  services: ControlServices;
  liveRun(executionId: string): WorkflowRun | undefined;
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

  constructor(private readonly options: ControlPipelineOptions) {
    this.handlers = options.handlers ?? COMMAND_HANDLERS;
  }

  /** Applies a command in its run's order; resolves with the answer once applied, rejects with the refusal. */
  send(executionId: string, command: ControlCommand, actor: string): Promise<ControlResult> {
    const key = command.type === 'SetLimits' ? SCHEDULER_RUN : command.type === 'SetSetting' ? SETTINGS_RUN : executionId;
    return this.sequencer.run(key, () => this.apply(executionId, command, actor));
  }

  private async apply(executionId: string, command: ControlCommand, actor: string): Promise<ControlResult> {
    const { audit, services } = this.options;
    if (!PSEUDO_RUNS.has(executionId) && services.runStatus(executionId) === null) {
      throw new NotFoundError(`run "${executionId}" does not exist`, 'executionId');
    }
    const gated = GATED_COMMANDS.has(command.type);
    if (!gated) await audit.review(executionId, command, actor);
    const target: CommandTarget = { executionId, actor, run: this.options.liveRun(executionId) ?? null, services };
    let outcome: CommandOutcome | void;
    try {
      outcome = await this.invoke(command, target);
    } catch (error) {
      if (!audit.audited(error))
        await audit.record(executionId, 'CONTROL_REJECTED', `${command.type}: ${error instanceof Error ? error.message : String(error)}`, actor);
      throw error;
    }
    const at = this.options.clock.now();
    const { auditData, ...answer } = outcome ?? {};
    if (!gated) await audit.record(executionId, 'CONTROL_APPLIED', command.type, actor, at, auditData);
    return { executionId, command: command.type, at, ...answer };
  }

  /** Runs the handler; events published while it runs synchronously are attributed to the actor. */
  private invoke(command: ControlCommand, target: CommandTarget): CommandOutcome | void | Promise<CommandOutcome | void> {
    const handler = this.handlers[command.type] as CommandHandler<ControlCommandType>;
    return this.options.audit.asActor(target.actor, () => handler(command as never, target));
  }
}
