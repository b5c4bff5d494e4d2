import { z } from 'zod';
import { Identifier } from './identifier';

/** Graph caps (DEF-02). */
export const MAX_NODES = 500;
export const MAX_EDGES = 2000;

export const Position = z.strictObject({ x: z.number().finite(), y: z.number().finite() });

/** A timeout given as one typed template, read from the node's first message. */
export const TimeoutTemplate = z
  .string()
  .regex(/^\$\{\s*(payload|metadata)(\.[^}:]+)*(:(int|float))?\s*\}$/, 'a number, or one template such as ${payload.secs:int}');

/** A node's config: any JSON object; `config.engine` holds the engine policy, checked by validation. */
export const NodeConfig = z.record(z.string(), z.unknown());

export const NodeDefinition = z.strictObject({
  nodeId: Identifier,
  type: Identifier,
  config: NodeConfig.default({}),
  /**
   * Idle timeout in seconds (ENG-05), or a typed template such as `${payload.secs:int}`: unknown until the
   * node's first message, so the node starts with its plugin's default and is re-timed at that message.
   */
  timeoutSeconds: z.union([z.number().positive(), TimeoutTemplate]).optional(),
  position: Position.optional(),
  label: z.string().max(200).optional(),
});
export type NodeDefinition = z.infer<typeof NodeDefinition>;

export const EdgeDefinition = z.strictObject({
  source: Identifier,
  target: Identifier,
  sourcePort: Identifier.optional(),
  targetPort: Identifier.optional(),
});
export type EdgeDefinition = z.infer<typeof EdgeDefinition>;

/**
 * A workflow definition (SPEC §3). Shape only: graph rules (cycles, unknown nodes, caps) are checked by
 * `validateGraph`, plugin config by the engine.
 */
export const WorkflowDefinition = z.strictObject({
  workflowId: Identifier,
  description: z.string().max(10_000).default(''),
  nodes: z.array(NodeDefinition),
  edges: z.array(EdgeDefinition).default([]),
});
export type WorkflowDefinition = z.infer<typeof WorkflowDefinition>;
/** The definition as a caller may write it (defaults not yet applied). */
export type WorkflowDefinitionInput = z.input<typeof WorkflowDefinition>;
