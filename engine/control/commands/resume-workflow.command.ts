import { liveRun, type CommandHandler } from '../command-handler';
import { resumeAll } from './stages';

/** ResumeWorkflow: Resumes the run and every node paused on its own; step mode ends. */
export const resumeWorkflow: CommandHandler<'ResumeWorkflow'> = (_command, target) => {
  const run = liveRun(target);
  resumeAll(run);
  target.services.stepMode.delete(run.executionId);
};
