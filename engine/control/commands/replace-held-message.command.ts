import { ConflictError } from '../../engine-errors';
import { deepFreeze } from '../../runtime/stage-output';
import { runningStage, type CommandHandler } from '../command-handler';

/** ReplaceHeldMessage (CTL-02, beyond the reference): the held message goes on with this payload when released. */
export const replaceHeldMessage: CommandHandler<'ReplaceHeldMessage'> = (command, target) => {
  const valve = runningStage(target, command.nodeId).valve;
  if (!valve.replaceHeldPayload(deepFreeze(command.payload))) {
    throw new ConflictError(`node "${command.nodeId}" holds no message (set a breakpoint or pause it first)`, 'command.nodeId');
  }
};
