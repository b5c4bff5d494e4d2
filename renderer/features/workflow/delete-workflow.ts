import type { StudioClient } from '../../../shared/api/client';
import { confirmAction } from '../../components/confirm';
import { useStudio } from '../../store/studio-store';
import { describeError } from './describe-error';

export interface DeleteActions {
  /** Asks, then deletes the open workflow and its versions (ADMIN); the host refuses while runs of it go on. */
  deleteWorkflow(): Promise<boolean>;
}

/** Delete workflow (issue 15 item 11): a confirmation naming what goes and what stays, then a new empty canvas. */
export function createDeleteActions(api: StudioClient, after: { newWorkflow(): void; refreshWorkflows(): Promise<void> }, studio = useStudio): DeleteActions {
  return {
    async deleteWorkflow() {
      const { session, storedWorkflowId } = studio.getState();
      if (storedWorkflowId === null) return false;
      const ok = await confirmAction({
        title: `Delete workflow "${storedWorkflowId}"?`,
        message:
          'Its definition and every saved version are deleted; finished runs stay in the history. A workflow with runs still going is not deleted: stop them first.',
        confirmLabel: 'Delete workflow',
        danger: true,
      });
      if (!ok) return false;
      try {
        await api['workflows.delete']({ session, workflowId: storedWorkflowId });
        after.newWorkflow();
        await after.refreshWorkflows();
        return true;
      } catch (error) {
        studio.getState().showBanner({ kind: 'save-error', message: `Delete refused: ${describeError(error)}` });
        return false;
      }
    },
  };
}
