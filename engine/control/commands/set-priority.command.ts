import type { CommandHandler } from '../command-handler';

/** SetPriority (ADM-03): moves a QUEUED start to another priority; refused for a run that is not waiting. */
export const setPriority: CommandHandler<'SetPriority'> = async (command, target) => {
  return { value: await target.services.setPriority(target.executionId, command.priority, target.actor) };
};
