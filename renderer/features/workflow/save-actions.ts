import type { StudioClient } from '../../../shared/api/client';
import { identifierProblem } from '../../../shared/workflow/identifier';
import { currentBreakpoints, useDebug } from '../../store/debug-store';
import { toDefinition } from '../../store/graph-model';
import type { useStudio } from '../../store/studio-store';
import { describeError } from './describe-error';
import { replaceWorkflowHash } from './hash-route';
import { clearBanner } from './run-view';

/** Saving the open workflow. */
export interface SaveActions {
  /** Saves the open workflow (with an optional note on the version); false (with the reason in the banner) when refused. */
  save(note?: string): Promise<boolean>;
}

/** What a save asks of the other action groups: the lists it changes. */
export interface SavePeers {
  refreshWorkflows(): Promise<void>;
  refreshVersions(): Promise<void>;
  refreshRuns(): Promise<void>;
  persistBreakpoints(): Promise<void>;
}

export function createSaveActions(api: StudioClient, studio: typeof useStudio, peers: SavePeers): SaveActions {
  return {
    async save(note) {
      const state = studio.getState();
      const problem = identifierProblem(state.workflowId);
      if (problem) {
        state.setSaveState('failed');
        state.showBanner({ kind: 'save-error', message: `Cannot save: the workflow id ${problem}. Type an id in the bar at the top (e.g. orders-sync).` });
        return false;
      }
      const sent = { nodes: state.nodes, edges: state.edges, workflowId: state.workflowId };
      state.setSaveState('saving');
      try {
        const result = await api['workflows.save']({ session: state.session, definition: toDefinition(state), ...(note ? { note } : {}) });
        const now = studio.getState();
        const previousId = now.storedWorkflowId;
        // Only what was sent is saved: an edit made while saving keeps the workflow dirty.
        if (now.nodes === sent.nodes && now.edges === sent.edges && now.workflowId === sent.workflowId) now.markSaved(result.workflowId, result.version);
        else studio.setState({ storedWorkflowId: result.workflowId, storedVersion: result.version, savedGraph: { nodes: sent.nodes, edges: sent.edges } });
        now.setSaveState('saved');
        clearBanner(studio, 'save-error');
        replaceWorkflowHash({ session: now.session, workflowId: result.workflowId });
        void peers.refreshWorkflows();
        void peers.refreshVersions();
        if (previousId !== result.workflowId) {
          rekeyBreakpoints(`${now.session}/${result.workflowId}`);
          void peers.persistBreakpoints();
          now.replaceRuns([]);
          void peers.refreshRuns();
        }
        return true;
      } catch (error) {
        studio.getState().setSaveState('failed');
        studio.getState().showBanner({ kind: 'save-error', message: `Save refused: ${describeError(error)}` });
        return false;
      }
    },
  };
}

/** A workflow saved under a new id keeps the breakpoints set on its canvas. */
function rekeyBreakpoints(key: string): void {
  const debug = useDebug.getState();
  const carried = currentBreakpoints(debug);
  debug.setWorkflowKey(key);
  if (Object.keys(currentBreakpoints(useDebug.getState())).length === 0)
    for (const [nodeId, bp] of Object.entries(carried)) useDebug.getState().setBreakpoint(nodeId, bp);
}
