import type { StateCreator } from 'zustand';
import { DEFAULT_SESSION } from '../../shared/workflow/identifier';
import type { WorkflowDefinition } from '../../shared/workflow/definition.schema';
import { applyGraphEdit, type GraphEdit, type GraphShape } from './graph-edits';
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
  /** The graph differs from the saved one (or was never saved): undo back to the saved graph is clean. */
  dirty: boolean;
  /** The graph as last opened or saved, to tell whether undo/redo came back to it; null for an import. */
  savedGraph: GraphShape | null;
  /** Bumped whenever a different workflow is loaded, so the canvas can fit its view once. */
  loadCount: number;
  /** Undo/redo stacks of whole graphs (structurally shared, so cheap). */
  past: GraphShape[];
  future: GraphShape[];
  /** A node drag is in progress: its frames form one undo step. */
  dragging: boolean;
  /** Key of the last field edit (typing in one field is one undo step), null after any other edit. */
  lastEditKey: string | null;
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
  edit: (edit) =>
    set((s) => {
      const result = applyGraphEdit({ nodes: s.nodes, edges: s.edges }, edit);
      if (result.nodes === s.nodes && result.edges === s.edges) return edit.kind === 'select' && s.lastEditKey ? { lastEditKey: null } : {};
      const patch: Partial<GraphSlice> = { nodes: result.nodes, edges: result.edges, dirty: s.dirty || result.changed };
      if (edit.kind === 'select') patch.lastEditKey = null;
      if (result.changed) {
        const key = fieldKeyOf(edit);
        const continues = (s.dragging && isPositionOnly(edit)) || (key !== null && key === s.lastEditKey);
        if (!continues) {
          patch.past = [...s.past.slice(-(MAX_UNDO - 1)), { nodes: s.nodes, edges: s.edges }];
          patch.future = [];
        }
        patch.dragging = isDragFrame(edit);
        patch.lastEditKey = key;
      }
      return patch;
    }),
  undo: () =>
    set((s) => {
      const previous = s.past[s.past.length - 1];
      if (!previous) return {};
      return { ...previous, past: s.past.slice(0, -1), future: [{ nodes: s.nodes, edges: s.edges }, ...s.future], dirty: differsFromSaved(previous, s.workflowId, s), dragging: false, lastEditKey: null };
    }),
  redo: () =>
    set((s) => {
      const next = s.future[0];
      if (!next) return {};
      return { ...next, past: [...s.past, { nodes: s.nodes, edges: s.edges }], future: s.future.slice(1), dirty: differsFromSaved(next, s.workflowId, s), dragging: false, lastEditKey: null };
    }),
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
        loadCount: s.loadCount + 1,
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
        loadCount: s.loadCount + 1,
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
    }),
  markSaved: (workflowId, version) => set((s) => ({ storedWorkflowId: workflowId, storedVersion: version, dirty: false, savedGraph: { nodes: s.nodes, edges: s.edges } })),
});

const EMPTY_GRAPH: GraphShape = { nodes: [], edges: [] };

/** Whether a graph and id differ from what was opened or saved (under the id it was saved as). */
function differsFromSaved(graph: GraphShape, workflowId: string, s: Pick<GraphSlice, 'savedGraph' | 'storedWorkflowId'>): boolean {
  if (s.savedGraph === null || workflowId !== (s.storedWorkflowId ?? '')) return true;
  return !sameGraph(graph, s.savedGraph);
}

/**
 * Same nodes (id, position and data) and edges (ends and ports). Data is compared by identity: edits replace
 * a node's data, undo brings the old object back, selection and measuring keep it.
 */
export function sameGraph(a: GraphShape, b: GraphShape): boolean {
  if (a.nodes.length !== b.nodes.length || a.edges.length !== b.edges.length) return false;
  const nodes = new Map(b.nodes.map((n) => [n.id, n]));
  for (const n of a.nodes) {
    const m = nodes.get(n.id);
    if (!m || m.data !== n.data || m.position.x !== n.position.x || m.position.y !== n.position.y) return false;
  }
  const edges = new Map(b.edges.map((e) => [e.id, e]));
  for (const e of a.edges) {
    const f = edges.get(e.id);
    if (!f || f.source !== e.source || f.target !== e.target || f.sourceHandle !== e.sourceHandle || f.data?.targetPort !== e.data?.targetPort) return false;
  }
  return true;
}

/** Most undo steps kept. */
export const MAX_UNDO = 100;

/** Edits that continue typing in one field share a key, so the whole typing is one undo step. */
function fieldKeyOf(edit: GraphEdit): string | null {
  if (edit.kind === 'set-config' && edit.field !== undefined) return `config:${edit.nodeId}:${edit.field}`;
  if (edit.kind === 'set-label') return `label:${edit.nodeId}`;
  if (edit.kind === 'set-timeout') return `timeout:${edit.nodeId}`;
  return null;
}

function isPositionOnly(edit: GraphEdit): boolean {
  return edit.kind === 'flow-nodes' && edit.changes.length > 0 && edit.changes.every((c) => c.type === 'position');
}

/** A frame of a node drag (React Flow marks those changes `dragging`). */
function isDragFrame(edit: GraphEdit): boolean {
  return isPositionOnly(edit) && edit.kind === 'flow-nodes' && edit.changes.some((c) => c.type === 'position' && c.dragging === true);
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
