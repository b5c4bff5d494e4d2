import type { StudioClient } from '../../../shared/api/client';
import { StudioApiError } from '../../../shared/api/errors';
import { DEFAULT_SESSION } from '../../../shared/workflow/identifier';
import { useDebug } from '../../store/debug-store';
import { describeError } from './describe-error';
import { replaceSessionHash, replaceWorkflowHash } from './hash-route';
import { clearBanner, showNoRun, type RunViewStores } from './run-view';

/** The node catalog and opening workflows: the picker's list, a stored one, a new empty one. */
export interface OpenActions {
  loadCatalog(): Promise<void>;
  refreshWorkflows(): Promise<void>;
  openWorkflow(session: string, workflowId: string): Promise<void>;
  /** A new empty workflow, in the current session unless another is named. */
  newWorkflow(session?: string): void;
}

/** What opening a workflow asks of the other action groups: the lists and breakpoints that follow it. */
export interface OpenPeers {
  refreshSessions(): Promise<void>;
  refreshVersions(): Promise<void>;
  refreshRuns(): Promise<void>;
  loadBreakpoints(session: string, workflowId: string): Promise<void>;
}

export function createOpenActions(api: StudioClient, stores: RunViewStores, peers: OpenPeers): OpenActions {
  const { studio } = stores;
  const open: OpenActions = {
    async loadCatalog() {
      try {
        studio.getState().setNodeTypes(await api['nodeTypes.list']({}));
      } catch (error) {
        studio.getState().setCatalogError(describeError(error));
      }
    },

    async refreshWorkflows() {
      // The session picker counts workflows: a save, restore, import or delete changes both labels.
      void peers.refreshSessions();
      try {
        const session = studio.getState().session;
        const list = await api['workflows.list']({ session });
        if (studio.getState().session === session) studio.getState().setWorkflows(list);
      } catch {
        // The picker keeps its last list; the next save or reload refreshes it.
      }
    },

    async openWorkflow(session, workflowId) {
      try {
        const stored = await api['workflows.get']({ session, workflowId });
        studio.getState().openWorkflow(stored.session, { definition: stored.definition, version: stored.version });
        // Also after a restore: the picker's node count follows the version now current.
        void open.refreshWorkflows();
        void peers.refreshVersions();
        studio.getState().replaceRuns([]);
        showNoRun(stores);
        useDebug.getState().setWorkflowKey(`${stored.session}/${workflowId}`);
        void peers.loadBreakpoints(stored.session, workflowId);
        clearBanner(studio, 'load-error');
        replaceWorkflowHash({ session: stored.session, workflowId });
        await peers.refreshRuns();
      } catch (error) {
        const notFound = error instanceof StudioApiError && error.code === 'NOT_FOUND';
        studio.getState().showBanner({
          kind: 'load-error',
          message: notFound
            ? `Workflow "${workflowId}" is not saved on the server; a new one was opened.`
            : `Could not open "${workflowId}": ${describeError(error)}`,
        });
        if (notFound) {
          open.newWorkflow();
          studio.getState().setWorkflowId(workflowId);
        }
      }
    },

    newWorkflow(session = studio.getState().session) {
      studio.getState().openWorkflow(session, null);
      studio.getState().replaceRuns([]);
      studio.getState().setSaveState('idle');
      showNoRun(stores);
      useDebug.getState().setWorkflowKey(`${session}/`);
      replaceSessionHash(session === DEFAULT_SESSION ? null : session);
    },
  };
  return open;
}
