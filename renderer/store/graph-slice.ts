import type { StateCreator } from 'zustand';
import { DEFAULT_SESSION } from '../../shared/workflow/identifier';
import type { WorkflowDefinition } from '../../shared/workflow/definition.schema';
import { applyGraphEdit, type GraphEdit } from './graph-edits';
import { fromDefinition, type StudioEdge, type StudioNode } from './graph-model';
import type { StudioState } from './studio-store';

/** The workflow open in the editor. */
export interface GraphSlice {
  session: string;
  /** The id the workflow will be saved under (editable in the app bar). */
  workflowId: string;
  /** The id of the stored workflow this graph was loaded from or last saved as; null for a new one. */
  storedWorkflowId: string | null;
  storedVersion: string | null;
  description: string;
  nodes: StudioNode[];
  edges: StudioEdge[];
  dirty: boolean;
  /** Bumped whenever a different workflow is loaded, so the canvas can fit its view once. */
  loadCount: number;
  edit(edit: GraphEdit): void;
  setWorkflowId(workflowId: string): void;
  /** Opens a stored workflow, or a new empty one when `stored` is null. */
  openWorkflow(session: string, stored: { definition: WorkflowDefinition; version: string } | null): void;
  markSaved(workflowId: string, version: string): void;
}

export const createGraphSlice: StateCreator<StudioState, [], [], GraphSlice> = (set) => ({
  session: DEFAULT_SESSION,
  workflowId: '',
  storedWorkflowId: null,
  storedVersion: null,
  description: '',
  nodes: [],
  edges: [],
  dirty: false,
  loadCount: 0,
  edit: (edit) =>
    set((s) => {
      const result = applyGraphEdit({ nodes: s.nodes, edges: s.edges }, edit);
      if (result.nodes === s.nodes && result.edges === s.edges) return {};
      return { nodes: result.nodes, edges: result.edges, dirty: s.dirty || result.changed };
    }),
  setWorkflowId: (workflowId) => set((s) => (s.workflowId === workflowId ? {} : { workflowId, dirty: true })),
  openWorkflow: (session, stored) =>
    set((s) => {
      const graph = stored ? fromDefinition(stored.definition) : { nodes: [], edges: [] };
      return {
        session,
        workflowId: stored?.definition.workflowId ?? '',
        storedWorkflowId: stored?.definition.workflowId ?? null,
        storedVersion: stored?.version ?? null,
        description: stored?.definition.description ?? '',
        nodes: graph.nodes,
        edges: graph.edges,
        dirty: false,
        loadCount: s.loadCount + 1,
      };
    }),
  markSaved: (workflowId, version) => set({ storedWorkflowId: workflowId, storedVersion: version, dirty: false }),
});

/** Id of the single selected node, or null (the inspector shows it). */
export function selectedNodeId(state: Pick<GraphSlice, 'nodes'>): string | null {
  let found: string | null = null;
  for (const n of state.nodes) {
    if (!n.selected) continue;
    if (found !== null) return null;
    found = n.id;
  }
  return found;
}
