import type { CommandHandler } from '../command-handler';

/** Restart: A new run of the same version with the same start payload (CTL-04), admitted like any start. */
export const restart: CommandHandler<'Restart'> = async (_command, target) => {
  const started = await target.services.restart(target.executionId);
  return { newExecutionId: started.newExecutionId, queued: started.queued };
};
