import type { Status } from '../../../shared/status/status';
import type { PreparedWorkflow } from '../../runtime/prepared-workflow';
import type { NodeCheckpoint, RecordedMessage } from '../../store/checkpoint-store';

/** Which nodes run again and which recorded outputs feed them (CTL-04). */
export interface RestartPlan {
  readonly rerun: ReadonlySet<string>;
  readonly replays: ReadonlyMap<string, readonly RecordedMessage[]>;
}

/** A parent whose output can be replayed ended like this (a drained trigger's output is complete too). */
export const REPLAYABLE: ReadonlySet<Status> = new Set<Status>(['SUCCESS', 'STOPPED']);

/** The node and every node below it. */
export function descendants(prepared: PreparedWorkflow, nodeId: string): Set<string> {
  const found = new Set<string>([nodeId]);
  const todo = [nodeId];
  while (todo.length) {
    const node = prepared.nodes.get(todo.pop()!)!;
    for (const children of node.outgoing.values()) {
      for (const child of children) {
        if (found.has(child)) continue;
        found.add(child);
        todo.push(child);
      }
    }
  }
  return found;
}

/** Parents of each node, from the prepared wiring. */
export function parentsOf(prepared: PreparedWorkflow): Map<string, Set<string>> {
  const parents = new Map<string, Set<string>>();
  for (const node of prepared.nodes.values()) {
    for (const children of node.outgoing.values()) {
      for (const child of children) {
        let set = parents.get(child);
        if (!set) parents.set(child, (set = new Set()));
        set.add(node.nodeId);
      }
    }
  }
  return parents;
}

/**
 * Plans a restart from `nodeId`: the node and its descendants run again; every parent feeding them from
 * outside must have a complete recording with an end marker (SUCCESS or STOPPED), which is replayed.
 * Returns the plan, or the reason it cannot be made (a parent still running, failed, over its checkpoint
 * caps, or never recorded).
 */
export function planRestart(prepared: PreparedWorkflow, nodeId: string, checkpoint: (nodeId: string) => NodeCheckpoint | null): RestartPlan | string {
  const rerun = descendants(prepared, nodeId);
  const parents = parentsOf(prepared);
  const replays = new Map<string, readonly RecordedMessage[]>();
  for (const target of rerun) {
    for (const parent of parents.get(target) ?? []) {
      if (rerun.has(parent) || replays.has(parent)) continue;
      const record = checkpoint(parent);
      const problem = replayProblem(parent, record);
      if (problem) return problem;
      replays.set(parent, record!.messages);
    }
  }
  return { rerun, replays };
}

function replayProblem(parent: string, record: NodeCheckpoint | null): string | null {
  if (record === null) return `parent "${parent}" has no recorded output (recording was off, or the run is older than the archive keeps)`;
  if (record.overCap !== null)
    return `parent "${parent}" passed its checkpoint cap (${record.overCap}), so its output cannot be replayed: restart from "${parent}" instead`;
  if (record.end === null) return `parent "${parent}" has not finished yet (no end marker): wait for it, or restart from "${parent}"`;
  if (!REPLAYABLE.has(record.end)) return `parent "${parent}" ended ${record.end}, so its output is incomplete: restart from "${parent}" instead`;
  return null;
}
