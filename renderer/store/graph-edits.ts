import { assertNever } from '../../shared/assert-never';
import { applyEdgeChanges, applyNodeChanges, type EdgeChange, type NodeChange } from '@xyflow/react';
import { edgeIdOf, type StudioEdge, type StudioNode } from './graph-model';

/**
 * Every change to the graph, as data (ARCHITECTURE.md "edits are data"): the canvas, the inspector and the
 * keyboard all produce these, one reducer applies them, and undo/redo or diffs can replay them.
 */
export type GraphEdit =
  | { kind: 'add-node'; node: StudioNode }
  | { kind: 'connect'; source: string; sourcePort: string; target: string }
  | { kind: 'remove'; nodeIds: readonly string[]; edgeIds: readonly string[] }
  | { kind: 'rename-node'; from: string; to: string }
  | { kind: 'set-label'; nodeId: string; label: string }
  /** `field` names the form field or editor being typed in: consecutive edits of one field are one undo step. */
  | { kind: 'set-config'; nodeId: string; config: Record<string, unknown>; field?: string }
  | { kind: 'set-timeout'; nodeId: string; timeoutSeconds: number | string | undefined }
  /** Paste or duplicate: the nodes (fresh ids) and their internal edges, selected afterwards. */
  | { kind: 'add-graph'; nodes: readonly StudioNode[]; edges: readonly StudioEdge[] }
  /** Auto-layout: new positions for many nodes, one undo step. */
  | { kind: 'move-nodes'; positions: Readonly<Record<string, { x: number; y: number }>> }
  | { kind: 'select'; nodeId: string | null }
  /** React Flow's own change objects (drag, select, remove, dimensions). */
  | { kind: 'flow-nodes'; changes: NodeChange<StudioNode>[] }
  | { kind: 'flow-edges'; changes: EdgeChange<StudioEdge>[] };

export interface GraphShape {
  nodes: StudioNode[];
  edges: StudioEdge[];
}

export interface EditResult extends GraphShape {
  /** True when the edit changed the workflow itself (not only selection or measured sizes). */
  changed: boolean;
}

/** Applies one edit; returns the same arrays when nothing changed. */
export function applyGraphEdit(graph: GraphShape, edit: GraphEdit): EditResult {
  switch (edit.kind) {
    case 'add-node':
      if (graph.nodes.some((n) => n.id === edit.node.id)) return same(graph);
      return { nodes: [...graph.nodes.map(deselect), { ...edit.node, selected: true }], edges: graph.edges, changed: true };
    case 'connect':
      return connect(graph, edit.source, edit.sourcePort, edit.target);
    case 'remove':
      return remove(graph, new Set(edit.nodeIds), new Set(edit.edgeIds));
    case 'rename-node':
      return rename(graph, edit.from, edit.to);
    case 'set-label':
      return updateData(graph, edit.nodeId, (d) => (d.label === edit.label ? d : { ...d, label: edit.label }));
    case 'set-config':
      return updateData(graph, edit.nodeId, (d) => ({ ...d, config: edit.config }));
    case 'set-timeout':
      return updateData(graph, edit.nodeId, (d) => setTimeoutSeconds(d, edit.timeoutSeconds));
    case 'add-graph':
      return addGraph(graph, edit.nodes, edit.edges);
    case 'move-nodes':
      return moveNodes(graph, edit.positions);
    case 'select': {
      const nodes = graph.nodes.map((n) => (Boolean(n.selected) === (n.id === edit.nodeId) ? n : { ...n, selected: n.id === edit.nodeId }));
      return { nodes, edges: graph.edges.map((e) => (e.selected ? { ...e, selected: false } : e)), changed: false };
    }
    case 'flow-nodes':
      return flowNodes(graph, edit.changes);
    case 'flow-edges':
      return flowEdges(graph, edit.changes);
    default:
      return assertNever(edit, 'graph edit');
  }
}

/** A unique node id for a new node of a type: `transform_1`, `transform_2`… */
export function nextNodeId(type: string, existing: Iterable<string>): string {
  const taken = new Set(existing);
  const base =
    type
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '_')
      .replace(/^_+|_+$/g, '') || 'node';
  for (let n = 1; ; n++) {
    const id = `${base}_${n}`;
    if (!taken.has(id)) return id;
  }
}

function same(graph: GraphShape): EditResult {
  return { nodes: graph.nodes, edges: graph.edges, changed: false };
}

function deselect<T extends { selected?: boolean }>(item: T): T {
  return item.selected ? { ...item, selected: false } : item;
}

function connect(graph: GraphShape, source: string, sourcePort: string, target: string): EditResult {
  const id = edgeIdOf(source, sourcePort, target);
  const known = new Set(graph.nodes.map((n) => n.id));
  // Duplicates would be refused by validation anyway; not creating them keeps the canvas honest.
  if (!known.has(source) || !known.has(target) || graph.edges.some((e) => e.id === id)) return same(graph);
  const edge: StudioEdge = { id, source, sourceHandle: sourcePort, target, data: {} };
  return { nodes: graph.nodes, edges: [...graph.edges, edge], changed: true };
}

function remove(graph: GraphShape, nodeIds: Set<string>, edgeIds: Set<string>): EditResult {
  const nodes = graph.nodes.filter((n) => !nodeIds.has(n.id));
  const edges = graph.edges.filter((e) => !edgeIds.has(e.id) && !nodeIds.has(e.source) && !nodeIds.has(e.target));
  if (nodes.length === graph.nodes.length && edges.length === graph.edges.length) return same(graph);
  return { nodes, edges, changed: true };
}

function rename(graph: GraphShape, from: string, to: string): EditResult {
  if (from === to || !graph.nodes.some((n) => n.id === from) || graph.nodes.some((n) => n.id === to)) return same(graph);
  const nodes = graph.nodes.map((n) => (n.id === from ? { ...n, id: to } : n));
  const edges = graph.edges.map((e) => {
    if (e.source !== from && e.target !== from) return e;
    const source = e.source === from ? to : e.source;
    const target = e.target === from ? to : e.target;
    return { ...e, source, target, id: edgeIdOf(source, e.sourceHandle ?? 'out', target, e.data?.targetPort) };
  });
  return { nodes, edges, changed: true };
}

function updateData(graph: GraphShape, nodeId: string, update: (d: StudioNode['data']) => StudioNode['data']): EditResult {
  let changed = false;
  const nodes = graph.nodes.map((n) => {
    if (n.id !== nodeId) return n;
    const data = update(n.data);
    if (data === n.data) return n;
    changed = true;
    return { ...n, data };
  });
  return changed ? { nodes, edges: graph.edges, changed } : same(graph);
}

function flowEdges(graph: GraphShape, all: EdgeChange<StudioEdge>[]): EditResult {
  // React Flow reports the edges of a removed node again after the node removal took them away.
  const known = new Set(graph.edges.map((e) => e.id));
  const changes = all.filter((c) => c.type === 'add' || known.has(c.id));
  if (changes.length === 0) return same(graph);
  const changed = changes.some((c) => c.type === 'remove' || c.type === 'add' || c.type === 'replace');
  return { nodes: graph.nodes, edges: applyEdgeChanges(changes, graph.edges), changed };
}

function setTimeoutSeconds(data: StudioNode['data'], timeoutSeconds: number | string | undefined): StudioNode['data'] {
  if (data.timeoutSeconds === timeoutSeconds) return data;
  const { timeoutSeconds: _old, ...rest } = data;
  return timeoutSeconds === undefined ? rest : { ...rest, timeoutSeconds };
}

function addGraph(graph: GraphShape, nodes: readonly StudioNode[], edges: readonly StudioEdge[]): EditResult {
  const taken = new Set(graph.nodes.map((n) => n.id));
  if (nodes.length === 0 || nodes.some((n) => taken.has(n.id))) return same(graph);
  const added = nodes.map((n) => ({ ...n, selected: true }));
  const addedEdges = edges.map((e) => ({ ...e, selected: false }));
  return { nodes: [...graph.nodes.map(deselect), ...added], edges: [...graph.edges.map(deselect), ...addedEdges], changed: true };
}

function moveNodes(graph: GraphShape, positions: Readonly<Record<string, { x: number; y: number }>>): EditResult {
  let changed = false;
  const nodes = graph.nodes.map((n) => {
    const p = positions[n.id];
    if (!p || (p.x === n.position.x && p.y === n.position.y)) return n;
    changed = true;
    return { ...n, position: { x: p.x, y: p.y } };
  });
  return changed ? { nodes, edges: graph.edges, changed } : same(graph);
}

function flowNodes(graph: GraphShape, changes: NodeChange<StudioNode>[]): EditResult {
  if (changes.length === 0) return same(graph);
  const removed = new Set(changes.flatMap((c) => (c.type === 'remove' ? [c.id] : [])));
  const nodes = applyNodeChanges(changes, graph.nodes);
  const edges = removed.size ? graph.edges.filter((e) => !removed.has(e.source) && !removed.has(e.target)) : graph.edges;
  // A drag in progress moves the node; it counts as an edit (the position is saved).
  const changed = changes.some((c) => c.type === 'remove' || c.type === 'add' || c.type === 'replace' || (c.type === 'position' && c.position !== undefined));
  return { nodes, edges, changed };
}
