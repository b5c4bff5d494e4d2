import type { StateCreator } from 'zustand';
import { DEFAULT_SESSION } from '../../shared/workflow/identifier';
import type { WorkflowDefinition } from '../../shared/workflow/definition.schema';
import type { GraphEdit, GraphShape } from './graph-edits';
import { differsFromSaved, editPatch, redoPatch, undoPatch, type GraphHistory } from './graph-history';
import { fromDefinition } from './graph-model';
import type { StudioState } from './studio-store';

export { MAX_UNDO, sameGraph } from './graph-history';

/** The workflow open in the editor. */
export interface GraphSlice extends GraphHistory {
  session: string;
  storedVersion: string | null;
  description: string;
  /** Bumped whenever a different workflow is loaded, so the canvas can fit its view once. */
  loadCount: number;
  edit(edit: GraphEdit): void;
  undo(): void;
  redo(): void;
  setWorkflowId(workflowId: string): void;
  /** Opens a stored workflow, or a new empty one when `stored` is null. */
  openWorkflow(session: string, stored: { definition: WorkflowDefinition; version: string } | null): void;
  /** Loads an imported definition as a new, unsaved workflow of the current session. */
  importWorkflow(definition: WorkflowDefinition): void;
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
  savedGraph: EMPTY_GRAPH,
  loadCount: 0,
  past: [],
  future: [],
  dragging: false,
  lastEditKey: null,
  edit: (edit) => set((s) => editPatch(s, edit)),
  undo: () => set(undoPatch),
  redo: () => set(redoPatch),
  setWorkflowId: (workflowId) => set((s) => (s.workflowId === workflowId ? {} : { workflowId, dirty: differsFromSaved(s, workflowId, s) })),
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
        savedGraph: { nodes: graph.nodes, edges: graph.edges },
        ...freshLoad(s.loadCount),
      };
    }),
  importWorkflow: (definition) =>
    set((s) => {
      const graph = fromDefinition(definition);
      return {
        workflowId: definition.workflowId,
        storedWorkflowId: null,
        storedVersion: null,
        description: definition.description,
        nodes: graph.nodes,
        edges: graph.edges,
        dirty: true,
        savedGraph: null,
        ...freshLoad(s.loadCount),
      };
    }),
  markSaved: (workflowId, version) =>
    set((s) => ({ storedWorkflowId: workflowId, storedVersion: version, dirty: false, savedGraph: { nodes: s.nodes, edges: s.edges } })),
});

const EMPTY_GRAPH: GraphShape = { nodes: [], edges: [] };

/** What loading any workflow resets: the undo history, the version list and any diff on the canvas. */
function freshLoad(loadCount: number): Partial<StudioState> {
  return {
    loadCount: loadCount + 1,
    past: [],
    future: [],
    dragging: false,
    lastEditKey: null,
    versions: [],
    versionsState: 'idle',
    versionsError: null,
    comparePick: [],
    diffView: null,
  };
}

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
