import type { ValidationIssue } from '../../../shared/workflow/validation-issue';
import type { StudioEdge } from '../../store/graph-model';
import { MARKED_EDGE_TYPE } from './MarkedEdge';

/**
 * Edges named by a problem (by index, or both ends inside a reported cycle) get a class, a label and a
 * badge whose hover shows the message, so validation shows on edges as well as nodes. The store keeps
 * the plain edges.
 */
export function markEdgeProblems(edges: StudioEdge[], issues: readonly ValidationIssue[]): StudioEdge[] {
  const errors = issues.filter((i) => i.severity === 'error' && (i.edgeIndex !== undefined || i.nodeIds));
  if (errors.length === 0) return edges;
  return edges.map((edge, index) => {
    const issue = errors.find(
      (i) => i.edgeIndex === index || (i.code === 'DEF-02/cycle' && i.nodeIds?.includes(edge.source) && i.nodeIds.includes(edge.target)),
    );
    if (!issue) return edge;
    const message = `${issue.code}: ${issue.message}`;
    return {
      ...edge,
      type: MARKED_EDGE_TYPE,
      className: 'has-problem',
      ariaLabel: `Edge from ${edge.source} to ${edge.target}: ${issue.message}`,
      data: { ...edge.data, problem: message },
    };
  });
}
