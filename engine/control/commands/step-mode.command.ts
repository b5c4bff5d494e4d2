import { liveRun, runningStage, type CommandHandler } from '../command-handler';
import { resumeAll } from './stages';

/** StepMode: Step mode on: the run (or one node) holds before every message until Step lets some through. Off: resumes. */
export const stepMode: CommandHandler<'StepMode'> = (command, target) => {
  const run = liveRun(target);
  if (command.nodeId !== undefined) {
    const valve = runningStage(target, command.nodeId).valve;
    if (command.enabled) valve.pause();
    else valve.resume();
    return;
  }
  if (command.enabled) {
    run.pause();
    target.services.stepMode.add(run.executionId);
  } else {
    resumeAll(run);
    target.services.stepMode.delete(run.executionId);
  }
};
