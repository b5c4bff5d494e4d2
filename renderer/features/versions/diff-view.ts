import type { WorkflowDefinition } from '../../../shared/workflow/definition.schema';
import { diffWorkflows, edgeKey, type WorkflowDiff } from '../../../shared/workflow/workflow-diff';
import { fromDefinition, toFlowEdge, type DiffMark, type StudioEdge, type StudioNode } from '../../store/graph-model';
import { MARKED_EDGE_TYPE } from '../editor/MarkedEdge';

/** Two versions compared on the canvas: the newer graph with marks, plus ghosts of what was removed. */
export interface DiffView {
  /** Older and newer version hashes. */
  from: string;
  to: string;
  diff: WorkflowDiff;
  nodes: StudioNode[];
  edges: StudioEdge[];
}

/** Prefix of ghost edge ids, so a removed edge never collides with a kept one. */
const REMOVED_EDGE = 'removed:';

/**
 * Builds the canvas of a diff (STU-02): every node of `after` marked added, changed or unchanged (moves
 * alone are not changes), removed nodes of `before` as ghosts at their old positions, and edges marked
 * added or removed (ghosts) the same way. Pure; the diff itself is the shared `diffWorkflows`.
 */
export function buildDiffView(before: WorkflowDefinition, after: WorkflowDefinition, from: string, to: string): DiffView {
  const diff = diffWorkflows(before, after);
  const added = new Set(diff.nodes.added.map((n) => n.nodeId));
  const changed = new Set(diff.nodes.changed.map((n) => n.nodeId));
  const removed = new Set(diff.nodes.removed.map((n) => n.nodeId));
  const newer = fromDefinition(after);
  const older = fromDefinition(before);
  const mark = (node: StudioNode, diffMark: DiffMark): StudioNode => ({
    ...node,
    draggable: false,
    connectable: false,
    deletable: false,
    data: { ...node.data, diff: diffMark },
  });
  const nodes = [
    ...newer.nodes.map((n) => mark(n, added.has(n.id) ? 'added' : changed.has(n.id) ? 'changed' : 'unchanged')),
    ...older.nodes.filter((n) => removed.has(n.id)).map((n) => mark(n, 'removed')),
  ];
  const addedEdges = new Set(diff.edges.added.map(edgeKey));
  const edges = [
    ...after.edges.map((e, i) => markEdge({ ...newer.edges[i]! }, addedEdges.has(edgeKey(e)) ? 'added' : 'unchanged')),
    ...diff.edges.removed.map((e) => {
      const edge = toFlowEdge(e);
      return markEdge({ ...edge, id: `${REMOVED_EDGE}${edge.id}` }, 'removed');
    }),
  ];
  return { from, to, diff, nodes, edges };
}

function markEdge(edge: StudioEdge, diffMark: DiffMark): StudioEdge {
  const label = diffMark === 'unchanged' ? undefined : `Edge ${edge.source} → ${edge.target}: ${diffMark}`;
  const marked: StudioEdge = { ...edge, deletable: false, className: `diff-${diffMark}`, data: { ...edge.data, diff: diffMark } };
  return label ? { ...marked, type: MARKED_EDGE_TYPE, ariaLabel: label } : marked;
}

/** How many of each mark the view holds (for the summary line). */
export function diffCounts(diff: WorkflowDiff): Record<Exclude<DiffMark, 'unchanged'>, number> & { edgesAdded: number; edgesRemoved: number } {
  return {
    added: diff.nodes.added.length,
    removed: diff.nodes.removed.length,
    changed: diff.nodes.changed.length,
    edgesAdded: diff.edges.added.length,
    edgesRemoved: diff.edges.removed.length,
  };
}
