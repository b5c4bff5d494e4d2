import type { StartRecord } from '../store/start-record';
import { REPLAY_TYPE } from './replay-graph';
import type { AdmittedStart } from './run-launcher';

/**
 * What the execution log's RUN_STARTED keeps of an admitted start (DUR-01): by default its scope is every
 * node it really runs and its inputs the nodes replayed into it (a restart from a node); a resume passes
 * the original run's scope and inputs instead.
 */
export function startRecordOf(start: AdmittedStart): StartRecord {
  const nodes = [...start.prepared.nodes.values()];
  const origin = start.origin ?? {};
  const record: StartRecord = {
    session: start.session,
    workflowId: start.workflowId,
    version: start.prepared.version,
    payload: start.payload ?? {},
    scope: origin.scope ?? nodes.filter((n) => n.plugin.type !== REPLAY_TYPE).map((n) => n.nodeId),
    inputs: origin.inputs ?? nodes.filter((n) => n.plugin.type === REPLAY_TYPE).map((n) => n.nodeId),
  };
  if (origin.resumedFrom !== undefined) record.resumedFrom = origin.resumedFrom;
  if (origin.idempotency !== undefined) record.idempotency = origin.idempotency;
  return record;
}
