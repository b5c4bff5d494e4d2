import type { WorkflowDefinition, NodeDefinition } from '../../shared/workflow/definition.schema';
import { DEFAULT_PORT, EnginePolicy, type JoinTrigger } from '../../shared/workflow/engine-policy.schema';
import type { NodeKind } from '../../shared/workflow/node-type';
import { DEFAULT_IDLE_TIMEOUT_MS, type Plugin } from '../plugins/contract';
import type { PluginRegistry } from '../plugins/registry';
import { resolvePolicy, type NodePolicy } from './failure-policy';

/** A node ready to run: its plugin, parsed config, resolved policy and wiring (DEF-03). */
export interface PreparedNode {
  readonly nodeId: string;
  readonly kind: NodeKind;
  readonly plugin: Plugin<unknown>;
  readonly config: unknown;
  readonly trigger: JoinTrigger;
  readonly policy: NodePolicy;
  /** Idle timeout (ENG-05): `timeoutSeconds`, else the plugin's default, else 30 s. */
  readonly idleTimeoutMs: number;
  /** `timeoutSeconds` as a template: the node starts with the default and is re-timed at its first message. */
  readonly idleTimeoutTemplate: string | null;
  /** `engine.edgeBuffer`: a dropping buffer in front of the node instead of back-pressure (ENG-01). */
  readonly edgeBuffer: { size: number; overflow: 'DROP_OLDEST' | 'DROP_NEWEST' } | null;
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
  /**
   * The node ids in order, made once: every run of this graph announces this same array (the tracker shares
   * one layout per array, OBS-01), so it must never be changed.
   */
  readonly nodeIds: readonly string[];
}

interface Wiring {
  outgoing: ReadonlyMap<string, readonly string[]>;
  incoming: number;
}

/** Gives a processor with `engine.placement` the plugin that runs it on a worker (SCL-01). */
export interface NodePlacement {
  remote(local: Plugin<unknown>, pool: string, config: Record<string, unknown>): Plugin<unknown>;
}

type Assembler = (node: NodeDefinition, plugin: Plugin<unknown>, wiring: Wiring) => PreparedNode;

/** One assembler per node kind (DEF-03): triggers take no input and join nothing; terminals emit nothing. */
const ASSEMBLERS: { [K in NodeKind]: Assembler } = {
  trigger: (node, plugin, wiring) => ({ ...assembleCommon(node, plugin, wiring), trigger: 'ALL_SUCCESS', edgeBuffer: null, incoming: 0 }),
  processor: (node, plugin, wiring) => assembleCommon(node, plugin, wiring),
  terminal: (node, plugin, wiring) => ({ ...assembleCommon(node, plugin, wiring), outgoing: new Map() }),
};

function assembleCommon(node: NodeDefinition, plugin: Plugin<unknown>, wiring: Wiring): PreparedNode {
  const { engine, ...rawConfig } = node.config;
  const policy = engine === undefined ? {} : EnginePolicy.parse(engine);
  const config = plugin.configSchema.parse(rawConfig);
  const idleTimeoutMs = typeof node.timeoutSeconds === 'number' ? node.timeoutSeconds * 1000 : (plugin.defaultTimeoutMs?.(config) ?? DEFAULT_IDLE_TIMEOUT_MS);
  return {
    nodeId: node.nodeId,
    kind: plugin.kind,
    plugin,
    config,
    trigger: policy.trigger ?? 'ALL_SUCCESS',
    policy: resolvePolicy(policy),
    idleTimeoutMs,
    idleTimeoutTemplate: typeof node.timeoutSeconds === 'string' ? node.timeoutSeconds : null,
    edgeBuffer: policy.edgeBuffer ?? null,
    outgoing: wiring.outgoing,
    incoming: wiring.incoming,
  };
}

/**
 * Resolves plugins, parses configs and policies, and wires ports. The definition must already have
 * passed `validateDefinition`; anything wrong here is a programming error and throws.
 */
export function prepareWorkflow(definition: WorkflowDefinition, version: string, registry: PluginRegistry, placement?: NodePlacement): PreparedWorkflow {
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
    const wiring = { outgoing: outgoing.get(node.nodeId) ?? new Map<string, string[]>(), incoming: incoming.get(node.nodeId) ?? 0 };
    const prepared = ASSEMBLERS[plugin.kind](node, plugin, wiring);
    const pool = plugin.kind === 'processor' && placement ? placementPool(node) : null;
    nodes.set(node.nodeId, pool === null ? prepared : { ...prepared, plugin: placement!.remote(plugin, pool, withoutEngine(node.config)) });
  }
  return { definition, version, nodes, nodeIds: [...nodes.keys()] };
}

/** The pool of `engine.placement` (SCL-01), or null. */
function placementPool(node: NodeDefinition): string | null {
  const engine = node.config.engine;
  return engine === undefined ? null : (EnginePolicy.parse(engine).placement?.pool ?? null);
}

function withoutEngine(config: NodeDefinition['config']): Record<string, unknown> {
  const { engine: _engine, ...rest } = config;
  return rest;
}
