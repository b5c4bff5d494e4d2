import dagre from '@dagrejs/dagre';
import type { StudioEdge, StudioNode } from '../../store/graph-model';

/** Size used for a node React Flow has not measured yet (matches `.studio-node` width). */
const DEFAULT_SIZE = { width: 180, height: 80 };

/**
 * Left-to-right layered layout (dagre) of the whole graph. Returns top-left positions per node, rounded,
 * for one `move-nodes` edit (so the layout is one undo step).
 */
export function layoutLeftToRight(nodes: readonly StudioNode[], edges: readonly StudioEdge[]): Record<string, { x: number; y: number }> {
  const graph = new dagre.graphlib.Graph({ multigraph: true });
  graph.setGraph({ rankdir: 'LR', nodesep: 40, ranksep: 90, marginx: 0, marginy: 0 });
  graph.setDefaultEdgeLabel(() => ({}));
  const sizes = new Map<string, { width: number; height: number }>();
  for (const node of nodes) {
    const size = { width: node.measured?.width ?? DEFAULT_SIZE.width, height: node.measured?.height ?? DEFAULT_SIZE.height };
    sizes.set(node.id, size);
    graph.setNode(node.id, size);
  }
  for (const edge of edges) {
    if (sizes.has(edge.source) && sizes.has(edge.target)) graph.setEdge(edge.source, edge.target, {}, edge.id);
  }
  dagre.layout(graph);
  const positions: Record<string, { x: number; y: number }> = {};
  for (const node of nodes) {
    const laid = graph.node(node.id) as { x: number; y: number } | undefined;
    const size = sizes.get(node.id)!;
    // dagre gives centres; React Flow positions are top-left corners.
    if (laid) positions[node.id] = { x: Math.round(laid.x - size.width / 2), y: Math.round(laid.y - size.height / 2) };
  }
  return positions;
}
