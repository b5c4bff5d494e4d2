import { runningStage, type CommandHandler } from '../command-handler';

/** PauseNode: Pauses one node: it takes no new message (the one in its plugin finishes) and its clocks freeze. */
export const pauseNode: CommandHandler<'PauseNode'> = (command, target) => {
  runningStage(target, command.nodeId).valve.pause();
};
