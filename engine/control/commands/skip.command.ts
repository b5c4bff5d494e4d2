import type { CommandHandler } from '../command-handler';
import { processorStage } from './stages';

/** Skip: Skips a processor from its next message on: messages pass through without the plugin (CTL-02). */
export const skip: CommandHandler<'Skip'> = (command, target) => {
  processorStage(target, command.nodeId, 'skipped').valve.setSkipped(true);
};
