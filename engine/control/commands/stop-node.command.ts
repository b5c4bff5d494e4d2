import { runningStage, type CommandHandler } from '../command-handler';

/** StopNode: Stops one node (CTL-03): it ends STOPPED and its children see the end of their input; KILL abandons the call in its plugin. */
export const stopNode: CommandHandler<'StopNode'> = (command, target) => {
  runningStage(target, command.nodeId).stop('STOPPED', command.mode === 'KILL');
};
