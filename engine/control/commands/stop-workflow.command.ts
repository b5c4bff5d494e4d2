import { ConflictError } from '../../engine-errors';
import type { CommandHandler } from '../command-handler';

/**
 * StopWorkflow (CTL-03): DRAIN ends the run STOPPED once messages in flight reach the end; CANCEL ends it
 * CANCELLED (the call in each plugin may finish); KILL abandons plugin work at once. A QUEUED start is
 * taken out of the queue (CANCELLED without running).
 */
export const stopWorkflow: CommandHandler<'StopWorkflow'> = (command, target) => {
  if (target.run) return void target.run.stop(command.mode);
  if (target.services.withdrawQueued(target.executionId)) return;
  const status = target.services.runStatus(target.executionId);
  throw new ConflictError(`run "${target.executionId}" is ${status ?? 'not live'}: nothing to stop`, 'executionId');
};
