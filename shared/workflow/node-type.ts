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
});
export type NodeTypeInfo = z.infer<typeof NodeTypeInfo>;

/** The part of a node type the pure graph rules need. */
export type NodeTypeShape = Pick<NodeTypeInfo, 'kind' | 'outputs'>;
export type NodeTypeCatalog = ReadonlyMap<string, NodeTypeShape>;
