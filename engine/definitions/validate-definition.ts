import { validateWorkflowShape } from '../../shared/workflow/graph-validation';
import type { WorkflowDefinition } from '../../shared/workflow/definition.schema';
import { joinPath, type ValidationIssue } from '../../shared/workflow/validation-issue';
import type { PluginRegistry } from '../plugins/registry';

/**
 * The authoritative check (DEF-02): the shared graph rules plus each node's config against its plugin's
 * schema. The renderer runs the same graph rules live.
 */
export function validateDefinition(raw: unknown, registry: PluginRegistry): { definition: WorkflowDefinition | null; issues: ValidationIssue[] } {
  const { definition, issues } = validateWorkflowShape(raw, registry.catalog());
  if (!definition) return { definition, issues };
  definition.nodes.forEach((node, i) => {
    const plugin = registry.get(node.type);
    if (!plugin) return;
    const { engine: _engine, ...config } = node.config;
    const parsed = plugin.configSchema.safeParse(config);
    if (parsed.success) return;
    for (const problem of parsed.error.issues) {
      const option = joinPath(problem.path);
      issues.push({
        code: 'DEF-02/config',
        severity: 'error',
        message: `node "${node.nodeId}" (${node.type}) config${option ? `.${option}` : ''}: ${problem.message}`,
        nodeId: node.nodeId,
        path: joinPath(['nodes', i, 'config', ...problem.path]),
      });
    }
  });
  return { definition, issues };
}
