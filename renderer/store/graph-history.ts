import type { GraphEdit, GraphShape } from './graph-edits';
import { applyGraphEdit } from './graph-edits';
import type { StudioEdge, StudioNode } from './graph-model';

/** The editor's graph with its undo history and saved state: what an edit, undo or redo changes. */
export interface GraphHistory {
  /** The id the workflow will be saved under (editable in the app bar). */
  workflowId: string;
  /** The id of the stored workflow this graph was loaded from or last saved as; null for a new one. */
  storedWorkflowId: string | null;
  nodes: StudioNode[];
  edges: StudioEdge[];
  /** The graph differs from the saved one (or was never saved): undo back to the saved graph is clean. */
  dirty: boolean;
  /** The graph as last opened or saved, to tell whether undo/redo came back to it; null for an import. */
  savedGraph: GraphShape | null;
  /** Undo/redo stacks of whole graphs (structurally shared, so cheap). */
  past: GraphShape[];
  future: GraphShape[];
  /** A node drag is in progress: its frames form one undo step. */
  dragging: boolean;
  /** Key of the last field edit (typing in one field is one undo step), null after any other edit. */
  lastEditKey: string | null;
}

/** Most undo steps kept. */
export const MAX_UNDO = 100;

/** The change one edit makes: a new undo step unless it continues a drag or the typing in one field. */
export function editPatch(s: GraphHistory, edit: GraphEdit): Partial<GraphHistory> {
  const result = applyGraphEdit({ nodes: s.nodes, edges: s.edges }, edit);
  if (result.nodes === s.nodes && result.edges === s.edges) return edit.kind === 'select' && s.lastEditKey ? { lastEditKey: null } : {};
  const patch: Partial<GraphHistory> = { nodes: result.nodes, edges: result.edges, dirty: s.dirty || result.changed };
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
}

export function undoPatch(s: GraphHistory): Partial<GraphHistory> {
  const previous = s.past[s.past.length - 1];
  if (!previous) return {};
  return {
    ...previous,
    past: s.past.slice(0, -1),
    future: [{ nodes: s.nodes, edges: s.edges }, ...s.future],
    dirty: differsFromSaved(previous, s.workflowId, s),
    dragging: false,
    lastEditKey: null,
  };
}

export function redoPatch(s: GraphHistory): Partial<GraphHistory> {
  const next = s.future[0];
  if (!next) return {};
  return {
    ...next,
    past: [...s.past, { nodes: s.nodes, edges: s.edges }],
    future: s.future.slice(1),
    dirty: differsFromSaved(next, s.workflowId, s),
    dragging: false,
    lastEditKey: null,
  };
}

/** Whether a graph and id differ from what was opened or saved (under the id it was saved as). */
export function differsFromSaved(graph: GraphShape, workflowId: string, s: Pick<GraphHistory, 'savedGraph' | 'storedWorkflowId'>): boolean {
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
