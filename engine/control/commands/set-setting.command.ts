import { SETTINGS_RUN } from '../../../shared/api/control.schema';
import { BadInputError } from '../../engine-errors';
import type { CommandHandler } from '../command-handler';

/**
 * SetSetting (CFG-01): saves a setting that applies at the next start, through the host's settings writer
 * (the engine does not know the settings file); addressed to the pseudo run `settings`. The audit row's data
 * names the key (the writer masks a secret value).
 */
export const setSetting: CommandHandler<'SetSetting'> = async (command, target) => {
  if (target.executionId !== SETTINGS_RUN) throw new BadInputError(`SetSetting is addressed to "${SETTINGS_RUN}", not to a run`, 'BAD_INPUT', 'executionId');
  const written = await target.services.setSetting(command.key, command.value, target.actor);
  return { value: written.value, auditData: written.audit };
};
