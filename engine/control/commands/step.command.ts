import { liveRun, runningStage, type CommandHandler } from '../command-handler';
import { runningStages } from './stages';

/** Step: Lets exactly `count` messages through the node (every running node when none is named), then holds again. */
export const step: CommandHandler<'Step'> = (command, target) => {
  if (command.nodeId !== undefined) return void runningStage(target, command.nodeId).valve.step(command.count);
  for (const stage of runningStages(liveRun(target))) stage.valve.step(command.count);
};
