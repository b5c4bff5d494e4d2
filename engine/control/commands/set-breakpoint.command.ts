import { runningStage, type CommandHandler } from '../command-handler';

/** SetBreakpoint: Holds the node before the first message whose `payload`, `payload.a.b` or `metadata.key` equals the text (CTL-02). */
export const setBreakpoint: CommandHandler<'SetBreakpoint'> = (command, target) => {
  runningStage(target, command.nodeId).valve.setBreakpoint({ path: command.path, equals: command.equals });
};
