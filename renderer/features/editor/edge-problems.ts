import type { ValidationIssue } from '../../../shared/workflow/validation-issue';
import type { StudioEdge } from '../../store/graph-model';

/**
 * Edges named by a problem (by index, or both ends inside a reported cycle) get a class and a label,
 * so validation shows on edges as well as nodes. The store keeps the plain edges.
 */
export function markEdgeProblems(edges: StudioEdge[], issues: readonly ValidationIssue[]): StudioEdge[] {
  const errors = issues.filter((i) => i.severity === 'error' && (i.edgeIndex !== undefined || i.nodeIds));
  if (errors.length === 0) return edges;
  return edges.map((edge, index) => {
    const issue = errors.find((i) => i.edgeIndex === index || (i.code === 'DEF-02/cycle' && i.nodeIds?.includes(edge.source) && i.nodeIds.includes(edge.target)));
    return issue ? { ...edge, className: 'has-problem', ariaLabel: `Edge from ${edge.source} to ${edge.target}: ${issue.message}` } : edge;
  });
}
