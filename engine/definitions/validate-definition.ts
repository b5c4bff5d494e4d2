import { validateWorkflowShape } from '../../shared/workflow/graph-validation';
import type { WorkflowDefinition } from '../../shared/workflow/definition.schema';
import { joinPath, type ValidationIssue } from '../../shared/workflow/validation-issue';
import { EnginePolicy } from '../../shared/workflow/engine-policy.schema';
import { WorkerName } from '../../shared/workers/worker-protocol';
import type { Plugin } from '../plugins/contract';
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
    const placement = placementProblem(node.config.engine, plugin);
    if (placement)
      issues.push({
        code: 'DEF-02/policy',
        severity: 'error',
        message: `node "${node.nodeId}" (${node.type}) engine.placement: ${placement}`,
        nodeId: node.nodeId,
        path: joinPath(['nodes', i, 'config', 'engine', 'placement']),
      });
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

/**
 * Why a node cannot run on a worker (SCL-01), or null: only processors are placed, and not those that keep
 * state across messages (a `finish` step), wait for signals or call back into the engine.
 */
function placementProblem(engine: unknown, plugin: Plugin<unknown>): string | null {
  const parsed = EnginePolicy.safeParse(engine);
  const placement = parsed.success ? parsed.data.placement : undefined;
  if (placement === undefined) return null;
  if (plugin.kind !== 'processor') return `only processors run on workers; a ${plugin.kind} runs on the host`;
  if (plugin.finish || plugin.waitsForSignals || plugin.needsEngine) {
    const why = plugin.finish ? 'keeps state across messages' : plugin.waitsForSignals ? 'waits for signals' : 'runs other workflows';
    return `${plugin.type} ${why}, so it needs the engine and cannot run on a worker`;
  }
  const pool = WorkerName.safeParse(placement.pool);
  return pool.success ? null : `pool "${placement.pool}": ${pool.error.issues[0]!.message}`;
}
