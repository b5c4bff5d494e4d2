import { BadInputError } from '../engine-errors';
import type { PreparedWorkflow } from './prepared-workflow';
import type { WorkflowRun } from './workflow-run';

export interface RunDebugSettings {
  /** Nodes paused from the start. */
  paused?: string[];
  /** Breakpoints (CTL-02): hold a node before the first message whose value at `path` equals `equals`. */
  breakpoints?: Array<{ nodeId: string; path: string; equals: string }>;
  /** Processors skipped from the start (ENG-06: they can be unskipped later). */
  skipped?: string[];
}

/** Checks debug settings before a slot is taken: unknown nodes and skipping a non-processor are bad input. */
export function checkDebug(prepared: PreparedWorkflow, debug: RunDebugSettings): void {
  const node = (nodeId: string, field: string) => {
    const found = prepared.nodes.get(nodeId);
    if (!found)
      throw new BadInputError(`debug.${field}: node "${nodeId}" is not in workflow "${prepared.definition.workflowId}"`, 'BAD_INPUT', `debug.${field}`);
    return found;
  };
  for (const nodeId of debug.skipped ?? []) {
    const found = node(nodeId, 'skipped');
    if (found.kind !== 'processor')
      throw new BadInputError(`debug.skipped: only processors can be skipped; "${nodeId}" is a ${found.kind}`, 'BAD_INPUT', 'debug.skipped');
  }
  for (const b of debug.breakpoints ?? []) node(b.nodeId, 'breakpoints');
  for (const nodeId of debug.paused ?? []) node(nodeId, 'paused');
}

/** Sets valves before the run starts (checked by `checkDebug`). */
export function applyDebug(run: WorkflowRun, debug: RunDebugSettings): void {
  for (const nodeId of debug.skipped ?? []) run.stage(nodeId).valve.setSkipped(true);
  for (const b of debug.breakpoints ?? []) run.stage(b.nodeId).valve.setBreakpoint({ path: b.path, equals: b.equals });
  for (const nodeId of debug.paused ?? []) run.stage(nodeId).valve.pause();
}
