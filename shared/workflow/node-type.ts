import { z } from 'zod';

export const NodeKind = z.enum(['trigger', 'processor', 'terminal']);
export type NodeKind = z.infer<typeof NodeKind>;

/** What the studio and the validator know of a plugin, as sent over the contract (EXT-01). */
export const NodeTypeInfo = z.object({
  type: z.string(),
  kind: NodeKind,
  title: z.string(),
  description: z.string(),
  /** Declared output ports; empty for terminals. `error` is added when onError is ROUTE. */
  outputs: z.array(z.string()),
  /** JSON Schema of the plugin's config, derived from its zod schema. */
  configSchema: z.record(z.string(), z.unknown()),
  /** A config that passes the schema, used when the node is dropped on the canvas. */
  defaultConfig: z.record(z.string(), z.unknown()),
  /**
   * Ports named by the config (ROUTER's routes): the values of `config[list][*][key]` are output ports
   * too, besides `outputs`.
   */
  outputsFromConfig: z.object({ list: z.string(), key: z.string() }).optional(),
  /** Declared ports that exist only while `config[flag]` is true (HTTP_REQUEST's status ports with `routeByStatus`). */
  outputsWhen: z.object({ flag: z.string(), ports: z.array(z.string()) }).optional(),
});
export type NodeTypeInfo = z.infer<typeof NodeTypeInfo>;

/** The part of a node type the pure graph rules need. */
export type NodeTypeShape = Pick<NodeTypeInfo, 'kind' | 'outputs' | 'outputsFromConfig' | 'outputsWhen'>;
export type NodeTypeCatalog = ReadonlyMap<string, NodeTypeShape>;

/**
 * The output ports of a node: its type's declared ports (less those whose flag is off), the ports its config names (ROUTER), and
 * `error` when its engine policy routes errors (onError ROUTE). Shared by validation and the canvas.
 */
export function outputPorts(shape: NodeTypeShape, config: Readonly<Record<string, unknown>>): string[] {
  const when = shape.outputsWhen;
  const ports = when && config[when.flag] !== true ? shape.outputs.filter((p) => !when.ports.includes(p)) : [...shape.outputs];
  const from = shape.outputsFromConfig;
  const list = from ? config[from.list] : undefined;
  if (from && Array.isArray(list)) {
    for (const item of list) {
      const port = item && typeof item === 'object' ? (item as Record<string, unknown>)[from.key] : undefined;
      if (typeof port === 'string' && port.length > 0 && !ports.includes(port)) ports.push(port);
    }
  }
  const engine = config['engine'];
  if (engine && typeof engine === 'object' && (engine as { onError?: unknown }).onError === 'ROUTE' && !ports.includes('error')) ports.push('error');
  return ports;
}
