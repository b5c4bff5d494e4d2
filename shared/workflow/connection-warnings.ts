import type { WorkflowDefinition } from './definition.schema';
import type { NodeTypeCatalog } from './node-type';
import type { ValidationIssue } from './validation-issue';

/**
 * Warnings in plain words (issue 15 item 11; the Problems tab, `workflows.validate` and a save's answer): a processor or terminal with nothing
 * connected into it never gets a message; a trigger connected to nothing starts runs that do nothing. They
 * never block a save (severity warning).
 */
export function connectionWarnings(graph: Pick<WorkflowDefinition, 'nodes' | 'edges'>, catalog: NodeTypeCatalog | undefined): ValidationIssue[] {
  // Without any trigger the workflow cannot start at all: DEF-02/no-trigger says so once.
  if (!catalog || !graph.nodes.some((n) => catalog.get(n.type)?.kind === 'trigger')) return [];
  const fed = new Set(graph.edges.map((e) => e.target));
  const feeding = new Set(graph.edges.map((e) => e.source));
  const issues: ValidationIssue[] = [];
  graph.nodes.forEach((node, i) => {
    const kind = catalog.get(node.type)?.kind;
    const at = { nodeId: node.nodeId, path: `nodes.${i}` };
    if (kind === 'trigger' && !feeding.has(node.nodeId)) {
      issues.push({
        code: 'DEF-02/no-children',
        severity: 'warning',
        message: `Trigger "${node.nodeId}" is not connected to anything, so its runs do nothing. Drag from its right handle to a node.`,
        ...at,
      });
    } else if ((kind === 'processor' || kind === 'terminal') && !fed.has(node.nodeId)) {
      issues.push({
        code: 'DEF-02/unconnected',
        severity: 'warning',
        message: `${kind === 'processor' ? 'Processor' : 'Terminal'} "${node.nodeId}" has no input, so no message ever reaches it. Connect a node's output to its left handle.`,
        ...at,
      });
    }
  });
  return issues;
}
