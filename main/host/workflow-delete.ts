import { StudioApiError } from '../../shared/api/errors';
import { isTerminal } from '../../shared/status/status';
import type { Engine } from '../../engine/index';

/** The audit's pseudo run id for actions on a workflow (the Audit view lists them beside run commands). */
export function workflowSubject(session: string, workflowId: string): string {
  return `workflow:${session}/${workflowId}`;
}

/**
 * `workflows.delete` (ADMIN): refused while a run of the workflow is still going (the caller stops them
 * first; nothing is deleted), else the definition and its versions go, finished runs stay in the history,
 * and the deletion is audited under `workflow:<session>/<id>`.
 */
export async function deleteWorkflow(engine: Engine, session: string, workflowId: string, actor: string): Promise<{ deleted: true }> {
  const active = engine.listRuns({ session, workflowId, limit: 1000 }).filter((r) => !isTerminal(r.status));
  if (active.length > 0) {
    const ids = active
      .slice(0, 3)
      .map((r) => r.executionId.slice(0, 8))
      .join(', ');
    throw new StudioApiError(
      'CONFLICT',
      `workflow "${workflowId}" has ${active.length} run(s) still going (${ids}${active.length > 3 ? ', …' : ''}): stop them first; finished runs stay in the history`,
      'workflowId',
    );
  }
  const result = await engine.workflows.delete(session, workflowId);
  await engine.control.recordAction(workflowSubject(session, workflowId), 'DeleteWorkflow', actor);
  return result;
}
