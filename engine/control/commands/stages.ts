import { BadInputError } from '../../engine-errors';
import { isTerminal } from '../../../shared/status/status';
import type { NodeStage } from '../../runtime/node-stage';
import type { WorkflowRun } from '../../runtime/workflow-run';
import { liveRun, runningStage, stageOf, type CommandTarget } from '../command-handler';

/** Every node of the run that has not ended. */
export function runningStages(run: WorkflowRun): NodeStage[] {
  return [...run.prepared.nodes.keys()].map((id) => run.stage(id)).filter((s) => !isTerminal(s.currentStatus));
}

/** Resumes the run and every node paused on its own (a run-level resume alone would leave those held). */
export function resumeAll(run: WorkflowRun): void {
  run.resume();
  for (const stage of runningStages(run)) if (stage.valve.state().paused) stage.valve.resume();
}

/** A running processor's stage; other node kinds cannot be skipped (CTL-02). */
export function processorStage(target: CommandTarget, nodeId: string, verb: string): NodeStage {
  const { kind } = stageOf(liveRun(target), nodeId).node;
  if (kind !== 'processor') throw new BadInputError(`only processors can be ${verb}; "${nodeId}" is a ${kind}`, 'BAD_INPUT', 'command.nodeId');
  return runningStage(target, nodeId);
}
