import type { Approval } from '../../../shared/api/control.schema';
import { useStudio } from '../../store/studio-store';
import { confirmDiscard } from '../workflow/unsaved-guard';
import type { StudioActions } from '../workflow/workflow-actions';

/** The inbox's Show run: opens the approval's workflow when another is open (after the unsaved guard), then shows the run. */
export async function showApprovalRun(actions: StudioActions, approval: Approval, studio = useStudio): Promise<void> {
  const { session, storedWorkflowId } = studio.getState();
  if (session !== approval.session || storedWorkflowId !== approval.workflowId) {
    if (!(await confirmDiscard(studio))) return;
    await actions.openWorkflow(approval.session, approval.workflowId);
  }
  studio.getState().setBottomTab('runs');
  await actions.showRun(approval.executionId);
}
