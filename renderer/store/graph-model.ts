import type { Edge, Node } from '@xyflow/react';
import { DEFAULT_PORT } from '../../shared/workflow/engine-policy.schema';
import type { EdgeDefinition, NodeDefinition, WorkflowDefinition } from '../../shared/workflow/definition.schema';

/** How a node or edge differs between two compared versions (STU-02); absent outside a diff. */
export type DiffMark = 'added' | 'removed' | 'changed' | 'unchanged';

/** What a canvas node carries besides its id (the node id is the React Flow id). */
export type StudioNodeData = {
  type: string;
  config: Record<string, unknown>;
  label?: string;
  /** Seconds, or a typed template such as `${payload.secs:int}` (ENG-05). */
  timeoutSeconds?: number | string;
  /** Only on the read-only canvas of a version diff. */
  diff?: DiffMark;
};
export type StudioNode = Node<StudioNodeData, 'studio'>;

export type StudioEdgeData = {
  targetPort?: string;
  /** The definition named no source port (the default port); kept so a load/save round trip is exact. */
  implicitPort?: boolean;
  /** Only on the read-only canvas of a version diff. */
  diff?: DiffMark;
  /** Set on the shown copy of an edge a validation issue names (the message, for the hover badge). */
  problem?: string;
};
export type StudioEdge = Edge<StudioEdgeData>;

export const STUDIO_NODE_TYPE = 'studio';

/** The workflow parts of the graph slice that make up a definition. */
export interface GraphContent {
  workflowId: string;
  description: string;
  nodes: readonly StudioNode[];
  edges: readonly StudioEdge[];
}

const COLUMN_WIDTH = 260;
const ROW_HEIGHT = 140;

/** Stable id of the canvas edge for a definition edge. */
export function edgeIdOf(source: string, sourcePort: string, target: string, targetPort?: string): string {
  return `${source}:${sourcePort}->${target}${targetPort ? `:${targetPort}` : ''}`;
}

export function toFlowNode(node: NodeDefinition, position: { x: number; y: number }): StudioNode {
  const data: StudioNodeData = { type: node.type, config: node.config ?? {} };
  if (node.label !== undefined) data.label = node.label;
  if (node.timeoutSeconds !== undefined) data.timeoutSeconds = node.timeoutSeconds;
  return { id: node.nodeId, type: STUDIO_NODE_TYPE, position, data };
}

export function toFlowEdge(edge: EdgeDefinition): StudioEdge {
  const port = edge.sourcePort ?? DEFAULT_PORT;
  const data: StudioEdgeData = {};
  if (edge.targetPort !== undefined) data.targetPort = edge.targetPort;
  if (edge.sourcePort === undefined) data.implicitPort = true;
  return { id: edgeIdOf(edge.source, port, edge.target, edge.targetPort), source: edge.source, sourceHandle: port, target: edge.target, data };
}

/** Definition → canvas. Nodes without a saved position are laid out left to right by depth. */
export function fromDefinition(def: WorkflowDefinition): { nodes: StudioNode[]; edges: StudioEdge[] } {
  const fallback = layoutByDepth(def);
  const nodes = def.nodes.map((n) => toFlowNode(n, n.position ? { x: n.position.x, y: n.position.y } : (fallback.get(n.nodeId) ?? { x: 0, y: 0 })));
  const seen = new Set<string>();
  const edges = def.edges.map((e) => {
    const edge = toFlowEdge(e);
    // Duplicate edges are invalid but must still load so the Problems panel can show them.
    let id = edge.id;
    for (let n = 2; seen.has(id); n++) id = `${edge.id}#${n}`;
    seen.add(id);
    return id === edge.id ? edge : { ...edge, id };
  });
  return { nodes, edges };
}

/** Canvas → definition, in canvas order; positions are rounded to whole pixels. */
export function toDefinition(content: GraphContent): WorkflowDefinition {
  return {
    workflowId: content.workflowId,
    description: content.description,
    nodes: content.nodes.map(toNodeDefinition),
    edges: content.edges.map(toEdgeDefinition),
  };
}

function toNodeDefinition(node: StudioNode): NodeDefinition {
  const def: NodeDefinition = {
    nodeId: node.id,
    type: node.data.type,
    config: node.data.config,
    position: { x: Math.round(node.position.x), y: Math.round(node.position.y) },
  };
  if (node.data.label !== undefined && node.data.label !== '') def.label = node.data.label;
  if (node.data.timeoutSeconds !== undefined) def.timeoutSeconds = node.data.timeoutSeconds;
  return def;
}

function toEdgeDefinition(edge: StudioEdge): EdgeDefinition {
  const def: EdgeDefinition = { source: edge.source, target: edge.target };
  const port = edge.sourceHandle ?? DEFAULT_PORT;
  if (!(edge.data?.implicitPort && port === DEFAULT_PORT)) def.sourcePort = port;
  if (edge.data?.targetPort !== undefined) def.targetPort = edge.data.targetPort;
  return def;
}

/** Longest-path depth from the sources (cycles are cut), one column per depth. */
function layoutByDepth(def: WorkflowDefinition): Map<string, { x: number; y: number }> {
  const depth = new Map<string, number>(def.nodes.map((n) => [n.nodeId, 0]));
  // Bellman-Ford style relaxation bounded by the node count, so a cycle cannot loop forever.
  for (let round = 0; round < def.nodes.length; round++) {
    let changed = false;
    for (const e of def.edges) {
      const d = depth.get(e.source);
      if (d === undefined || !depth.has(e.target)) continue;
      if (d + 1 > (depth.get(e.target) ?? 0) && d + 1 < def.nodes.length) {
        depth.set(e.target, d + 1);
        changed = true;
      }
    }
    if (!changed) break;
  }
  const rows = new Map<number, number>();
  const positions = new Map<string, { x: number; y: number }>();
  for (const n of def.nodes) {
    const d = depth.get(n.nodeId) ?? 0;
    const row = rows.get(d) ?? 0;
    rows.set(d, row + 1);
    positions.set(n.nodeId, { x: d * COLUMN_WIDTH, y: row * ROW_HEIGHT });
  }
  return positions;
}
