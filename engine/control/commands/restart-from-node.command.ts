import type { CommandHandler } from '../command-handler';

/** RestartFromNode: A new run re-running the node and its descendants, replaying the recorded outputs of the parents feeding them (CTL-04). */
export const restartFromNode: CommandHandler<'RestartFromNode'> = async (command, target) => {
  const started = await target.services.restartFromNode(target.executionId, command.nodeId);
  return { newExecutionId: started.newExecutionId, queued: started.queued };
};
