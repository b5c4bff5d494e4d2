import type { CommandTable } from '../command-handler';
import { clearBreakpoint } from './clear-breakpoint.command';
import { pauseNode } from './pause-node.command';
import { pauseWorkflow } from './pause-workflow.command';
import { replaceHeldMessage } from './replace-held-message.command';
import { restartFromNode } from './restart-from-node.command';
import { restart } from './restart.command';
import { resumeNode } from './resume-node.command';
import { resumeWorkflow } from './resume-workflow.command';
import { retryNode } from './retry-node.command';
import { setBreakpoint } from './set-breakpoint.command';
import { setLimits } from './set-limits.command';
import { setPriority } from './set-priority.command';
import { setSetting } from './set-setting.command';
import { signal } from './signal.command';
import { skip } from './skip.command';
import { stepMode } from './step-mode.command';
import { step } from './step.command';
import { stopNode } from './stop-node.command';
import { stopWorkflow } from './stop-workflow.command';
import { unskip } from './unskip.command';

/** The handler of every command (CTL-01): the mapped type makes a missing one a compile error. */
export const COMMAND_HANDLERS: CommandTable = {
  PauseWorkflow: pauseWorkflow,
  ResumeWorkflow: resumeWorkflow,
  PauseNode: pauseNode,
  ResumeNode: resumeNode,
  StepMode: stepMode,
  Step: step,
  StopNode: stopNode,
  StopWorkflow: stopWorkflow,
  Skip: skip,
  Unskip: unskip,
  SetBreakpoint: setBreakpoint,
  ClearBreakpoint: clearBreakpoint,
  Signal: signal,
  Restart: restart,
  RestartFromNode: restartFromNode,
  RetryNode: retryNode,
  SetLimits: setLimits,
  SetPriority: setPriority,
  ReplaceHeldMessage: replaceHeldMessage,
  SetSetting: setSetting,
};

/** Commands whose review and audit happen in the scheduler's gate (ADM-03), so direct scheduler calls pass them too. */
export const GATED_COMMANDS: ReadonlySet<string> = new Set(['SetLimits', 'SetPriority']);
