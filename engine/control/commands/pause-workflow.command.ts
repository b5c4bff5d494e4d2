import { liveRun, type CommandHandler } from '../command-handler';

/** PauseWorkflow: Pauses every node and freezes every clock of the run, its deadline included (CTL-02). */
export const pauseWorkflow: CommandHandler<'PauseWorkflow'> = (_command, target) => {
  liveRun(target).pause();
};
