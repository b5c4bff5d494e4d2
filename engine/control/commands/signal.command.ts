import { ConflictError } from '../../engine-errors';
import type { CommandHandler } from '../command-handler';

/**
 * Signal (CTL-05): answers the message waiting at a WAIT_FOR_SIGNAL node (ACCEPTED), or keeps the answer
 * until the node waits (QUEUED). Only signal nodes of a live run are registered: anything else is CONFLICT.
 */
export const signal: CommandHandler<'Signal'> = (command, target) => {
  const run = target.run;
  const { nodeId } = command;
  if (!run || !run.hasNode(nodeId)) {
    const where = run
      ? `run "${target.executionId}" has no node "${nodeId}"`
      : `run "${target.executionId}" is ${target.services.runStatus(target.executionId) ?? 'not live'}`;
    throw new ConflictError(`no signal node "${nodeId}" is registered: ${where}`, 'command.nodeId');
  }
  const stage = run.stage(nodeId);
  if (!stage.node.plugin.waitsForSignals)
    throw new ConflictError(`node "${nodeId}" (${stage.node.plugin.type}) is not registered for signals`, 'command.nodeId');
  if (stage.currentStatus !== 'PENDING' && stage.currentStatus !== 'RUNNING')
    throw new ConflictError(`node "${nodeId}" already ended ${stage.currentStatus}`, 'command.nodeId');
  const delivery =
    command.data === undefined ? { decision: command.decision, actor: target.actor } : { decision: command.decision, data: command.data, actor: target.actor };
  return { signal: target.services.deliverSignal(run, nodeId, delivery) };
};
