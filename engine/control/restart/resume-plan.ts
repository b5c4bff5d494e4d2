import type { PreparedWorkflow } from '../../runtime/prepared-workflow';
import type { NodeCheckpoint, RecordedMessage } from '../../store/checkpoint-store';
import type { StartRecord } from '../../store/start-record';
import { descendants, parentsOf, REPLAYABLE, type RestartPlan } from './restart-plan';

/** How an ABORTED run continues (DUR-03): what runs again, what is replayed into it, whose checkpoints move over. */
export interface ResumePlan extends RestartPlan {
  /** Nodes that finished (replayable end marker): skipped, their checkpoints copied to the new run. */
  readonly copied: readonly string[];
}

/**
 * Plans the resume of a run: every node of its scope with a replayable end marker (SUCCESS, or STOPPED
 * for a drained trigger) is skipped; the others run again with their descendants; the finished parents feeding them
 * replay their recorded output. A node that ended otherwise (FAILURE…) runs again. Returns the plan, or
 * why it cannot be made (a replayed input of a restart-from-node run never finished).
 */
export function planResume(prepared: PreparedWorkflow, record: StartRecord, checkpoint: (nodeId: string) => NodeCheckpoint | null): ResumePlan | string {
  const scope = new Set(record.scope.filter((n) => prepared.nodes.has(n)));
  const done = new Map<string, readonly RecordedMessage[]>();
  for (const nodeId of [...scope, ...record.inputs]) {
    const cp = checkpoint(nodeId);
    if (cp !== null && cp.overCap === null && cp.end !== null && REPLAYABLE.has(cp.end)) done.set(nodeId, cp.messages);
  }
  for (const input of record.inputs) {
    if (!done.has(input))
      return `the replayed input "${input}" of this run never finished, so its output is not in the run's checkpoints: restart from that node of the original run instead`;
  }
  const rerun = new Set<string>();
  for (const nodeId of scope) {
    if (done.has(nodeId) || rerun.has(nodeId)) continue;
    for (const d of descendants(prepared, nodeId)) if (scope.has(d)) rerun.add(d);
  }
  const parents = parentsOf(prepared);
  const replays = new Map<string, readonly RecordedMessage[]>();
  for (const target of rerun) {
    for (const parent of parents.get(target) ?? []) {
      if (rerun.has(parent) || replays.has(parent)) continue;
      const messages = done.get(parent);
      if (messages === undefined)
        return `node "${target}" is fed by "${parent}", which is outside this run and has no recording: start the workflow again instead`;
      replays.set(parent, messages);
    }
  }
  return { rerun, replays, copied: [...done.keys()].filter((n) => !rerun.has(n)) };
}
