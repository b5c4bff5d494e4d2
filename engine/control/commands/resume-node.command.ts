import { runningStage, type CommandHandler } from '../command-handler';

/** ResumeNode: Resumes one node (and releases a message held at its breakpoint). */
export const resumeNode: CommandHandler<'ResumeNode'> = (command, target) => {
  runningStage(target, command.nodeId).valve.resume();
};
