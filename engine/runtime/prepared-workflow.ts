import type { WorkflowDefinition } from '../../shared/workflow/definition.schema';
import { DEFAULT_PORT, EnginePolicy, type JoinTrigger } from '../../shared/workflow/engine-policy.schema';
import type { Plugin } from '../plugins/contract';
import type { PluginRegistry } from '../plugins/registry';

/** A node ready to run: its plugin, parsed config and wiring. */
export interface PreparedNode {
  readonly nodeId: string;
  readonly plugin: Plugin<unknown>;
  readonly config: unknown;
  readonly trigger: JoinTrigger;
  /** Children per output port. */
  readonly outgoing: ReadonlyMap<string, readonly string[]>;
  /** Number of incoming edges (producers of this node's input channel). */
  readonly incoming: number;
}

/** A validated workflow turned into runnable nodes, reusable across runs of the same version. */
export interface PreparedWorkflow {
  readonly definition: WorkflowDefinition;
  readonly version: string;
  readonly nodes: ReadonlyMap<string, PreparedNode>;
}

/**
 * Resolves plugins and parses configs. The definition must already have passed `validateDefinition`;
 * anything wrong here is a programming error and throws.
 */
export function prepareWorkflow(definition: WorkflowDefinition, version: string, registry: PluginRegistry): PreparedWorkflow {
  const outgoing = new Map<string, Map<string, string[]>>();
  const incoming = new Map<string, number>();
  for (const edge of definition.edges) {
    const ports = outgoing.get(edge.source) ?? new Map<string, string[]>();
    const port = edge.sourcePort ?? DEFAULT_PORT;
    ports.set(port, [...(ports.get(port) ?? []), edge.target]);
    outgoing.set(edge.source, ports);
    incoming.set(edge.target, (incoming.get(edge.target) ?? 0) + 1);
  }
  const nodes = new Map<string, PreparedNode>();
  for (const node of definition.nodes) {
    const plugin = registry.get(node.type);
    if (!plugin) throw new Error(`node "${node.nodeId}": unknown type "${node.type}"`);
    const { engine, ...rawConfig } = node.config;
    const policy = engine === undefined ? {} : EnginePolicy.parse(engine);
    nodes.set(node.nodeId, {
      nodeId: node.nodeId,
      plugin,
      config: plugin.configSchema.parse(rawConfig),
      trigger: policy.trigger ?? 'ALL_SUCCESS',
      outgoing: outgoing.get(node.nodeId) ?? new Map(),
      incoming: incoming.get(node.nodeId) ?? 0,
    });
  }
  return { definition, version, nodes };
}
