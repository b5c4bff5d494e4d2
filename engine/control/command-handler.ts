import type { ControlCommand, ControlCommandType, ControlResult, SignalOutcome } from '../../shared/api/control.schema';
import { ConflictError, NotFoundError } from '../engine-errors';
import { isTerminal, type Status } from '../../shared/status/status';
import type { Clock } from '../runtime/clock';
import type { NodeStage } from '../runtime/node-stage';
import type { WorkflowRun } from '../runtime/workflow-run';
import type { RestartStarted } from './restart/restarter';
import type { SignalDelivery } from './signals/signal-hub';

/** What the command handlers reach of the engine (kept narrow, so each handler is easy to test). */
export interface ControlServices {
  readonly clock: Clock;
  /** The tracker's status of a run, or null for an unknown run. */
  runStatus(executionId: string): Status | null;
  /** Takes a QUEUED start out of the queue (it ends CANCELLED without running). */
  withdrawQueued(executionId: string): boolean;
  /** Delivers a signal to a registered node of a live run: ACCEPTED or QUEUED. */
  deliverSignal(run: WorkflowRun, nodeId: string, delivery: SignalDelivery): SignalOutcome;
  restart(executionId: string): Promise<RestartStarted>;
  restartFromNode(executionId: string, nodeId: string): Promise<RestartStarted>;
  retryNode(executionId: string, nodeId: string): Promise<RestartStarted>;
  setLimits(limits: Extract<ControlCommand, { type: 'SetLimits' }>['limits'], actor: string): Promise<unknown>;
  setPriority(executionId: string, priority: number, actor: string): Promise<{ position: number }>;
  /** Saves a setting for the next start (CFG-01): the host's settings writer. */
  setSetting(key: string, value: unknown, actor: string): Promise<SettingWritten>;
  /** Runs in step mode (the debugger shows it). */
  readonly stepMode: Set<string>;
}

/** The run a command addresses, as the pipeline found it. */
export interface CommandTarget {
  readonly executionId: string;
  readonly actor: string;
  /** The live run, or null (queued, ended, or the scheduler pseudo run). */
  readonly run: WorkflowRun | null;
  readonly services: ControlServices;
}

/** What a handler adds to the answer; `auditData` goes into the audit row, not the answer. */
export type CommandOutcome = Partial<Pick<ControlResult, 'signal' | 'newExecutionId' | 'queued' | 'value'>> & { auditData?: unknown };

/** What the settings writer answers: the value for the caller, and what the audit row may show of it. */
export interface SettingWritten {
  value: unknown;
  audit: unknown;
}

/**
 * Where SetSetting commands are written (engine option `control.settings`): the host's settings file. It
 * validates the key and value, refusing with an error that names them (the host's own API error).
 */
export interface SettingsWriter {
  write(key: string, value: unknown, actor: string): Promise<SettingWritten>;
}

export type CommandOf<K extends ControlCommandType> = Extract<ControlCommand, { type: K }>;

/** Applies one command, or throws an engine error (ConflictError, NotFoundError, …) saying why it cannot (the pipeline audits both). */
export type CommandHandler<K extends ControlCommandType> = (
  command: CommandOf<K>,
  target: CommandTarget,
) => CommandOutcome | void | Promise<CommandOutcome | void>;

/** One handler per command type; a missing one fails to compile (CTL-01). */
export type CommandTable = { [K in ControlCommandType]: CommandHandler<K> };

/** The live run, or CONFLICT naming the run's state. */
export function liveRun(target: CommandTarget): WorkflowRun {
  if (target.run) return target.run;
  const status = target.services.runStatus(target.executionId);
  throw new ConflictError(`run "${target.executionId}" is ${status ?? 'not live'}, not running`, 'executionId');
}

/** The node's stage in a live run, or NOT_FOUND naming the node. */
export function stageOf(run: WorkflowRun, nodeId: string): NodeStage {
  if (!run.hasNode(nodeId)) throw new NotFoundError(`run "${run.executionId}" has no node "${nodeId}"`, 'command.nodeId');
  return run.stage(nodeId);
}

/** The node's stage, refused once the node has ended (nothing left to hold, step or skip). */
export function runningStage(target: CommandTarget, nodeId: string): NodeStage {
  const stage = stageOf(liveRun(target), nodeId);
  const status = stage.currentStatus;
  if (isTerminal(status)) throw new ConflictError(`node "${nodeId}" already ended ${status}`, 'command.nodeId');
  return stage;
}
