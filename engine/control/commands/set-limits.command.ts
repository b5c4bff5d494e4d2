import { SCHEDULER_RUN } from '../../../shared/api/control.schema';
import { StudioApiError } from '../../../shared/api/errors';
import type { CommandHandler } from '../command-handler';

/** SetLimits (ADM-03): changes scheduler limits live; addressed to the pseudo run `scheduler`. */
export const setLimits: CommandHandler<'SetLimits'> = async (command, target) => {
  if (target.executionId !== SCHEDULER_RUN) throw new StudioApiError('BAD_INPUT', `SetLimits is addressed to "${SCHEDULER_RUN}", not to a run`, 'executionId');
  return { value: await target.services.setLimits(command.limits, target.actor) };
};
