import type { StartRecord } from '../../store/start-record';
import type { UnwritableEntryError } from '../../store/unwritable-entry-error';
import { REPLAY_TYPE } from '../replay-graph';
import type { StartPlan } from './start-types';

/** Where the "record the start" step writes (the execution journal, DUR-01). */
export interface StartJournal {
  /**
   * RUN_STARTED with the start record (and IDEMPOTENCY_KEY when it has one), at `at`. Returns why the
   * record can never be written (nothing of the run is logged then; a caller's start is refused), or null.
   */
  started(executionId: string, record: StartRecord, at: number): UnwritableEntryError | null;
}

/**
 * What the execution log's RUN_STARTED keeps of an admitted start (DUR-01): by default its scope is every
 * node it really runs and its inputs the nodes replayed into it (a restart from a node); a resume passes
 * the original run's scope and inputs instead.
 */
export function startRecordOf(plan: StartPlan): StartRecord {
  const nodes = [...plan.prepared.nodes.values()];
  const origin = plan.origin;
  const record: StartRecord = {
    session: plan.session,
    workflowId: plan.workflowId,
    version: plan.prepared.version,
    payload: plan.payload,
    scope: origin?.scope ?? nodes.filter((n) => n.plugin.type !== REPLAY_TYPE).map((n) => n.nodeId),
    inputs: origin?.inputs ?? nodes.filter((n) => n.plugin.type === REPLAY_TYPE).map((n) => n.nodeId),
  };
  if (origin?.resumedFrom !== undefined) record.resumedFrom = origin.resumedFrom;
  if (plan.idempotency !== undefined) record.idempotency = plan.idempotency;
  return record;
}
