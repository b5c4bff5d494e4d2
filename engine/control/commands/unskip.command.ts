import type { CommandHandler } from '../command-handler';
import { processorStage } from './stages';

/** Unskip: Calls a skipped processor's plugin again from its next message on. */
export const unskip: CommandHandler<'Unskip'> = (command, target) => {
  processorStage(target, command.nodeId, 'unskipped').valve.setSkipped(false);
};
