import { randomUUID } from 'node:crypto';
import { toExecutionId, type ExecutionId } from '../../../shared/workflow/ids';

/**
 * Mints an execution id (a UUID). The one function that makes one: the start pipeline hands it to admission,
 * which calls it once the slot or the queue place is taken (ADM-01), and sub-workflows call it for a child.
 */
export function newExecutionId(): ExecutionId {
  return toExecutionId(randomUUID());
}
