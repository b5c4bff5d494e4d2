import type { CommandHandler } from '../command-handler';

/** RetryNode: Restart from a node that ended FAILURE or TIMED_OUT (CTL-04). */
export const retryNode: CommandHandler<'RetryNode'> = async (command, target) => {
  const started = await target.services.retryNode(target.executionId, command.nodeId);
  return { newExecutionId: started.newExecutionId, queued: started.queued };
};
