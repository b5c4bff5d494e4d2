import { runningStage, type CommandHandler } from '../command-handler';

/** ClearBreakpoint: Removes the node's breakpoint (a message held there stays held until resumed or stepped). */
export const clearBreakpoint: CommandHandler<'ClearBreakpoint'> = (command, target) => {
  runningStage(target, command.nodeId).valve.setBreakpoint(null);
};
