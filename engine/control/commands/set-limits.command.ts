import { SCHEDULER_RUN } from '../../../shared/api/control.schema';
import { BadInputError } from '../../engine-errors';
import type { CommandHandler } from '../command-handler';

/** SetLimits (ADM-03): changes scheduler limits live; addressed to the pseudo run `scheduler`. */
export const setLimits: CommandHandler<'SetLimits'> = async (command, target) => {
  if (target.executionId !== SCHEDULER_RUN) throw new BadInputError(`SetLimits is addressed to "${SCHEDULER_RUN}", not to a run`, 'BAD_INPUT', 'executionId');
  return { value: await target.services.setLimits(command.limits, target.actor) };
};
