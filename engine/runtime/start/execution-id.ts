import { randomUUID } from 'node:crypto';
import { toExecutionId, type ExecutionId } from '../../../shared/workflow/ids';

/**
 * Mints an execution id (a UUID). The one function that makes one: the start pipeline hands it to admission,
 * which calls it once the slot or the queue place is taken (ADM-01), and sub-workflows call it for a child.
 * Node builds `randomUUID()` by concatenating its hex pieces, a tree of about fifteen strings (~490 bytes) that
 * every map keyed by the id keeps alive as long as the run is remembered; `toLowerCase` (the UUID is lower case
 * already) returns it flattened (~60 bytes).
 */
export function newExecutionId(): ExecutionId {
  return toExecutionId(randomUUID().toLowerCase());
}
