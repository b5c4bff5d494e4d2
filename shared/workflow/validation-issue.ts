import { z } from 'zod';

/** Stable codes of the validation rules (DEF-02); tests, the Problems panel and docs refer to them. */
export const ValidationCode = z.enum([
  'DEF-02/schema',
  'DEF-02/duplicate-node',
  'DEF-02/duplicate-edge',
  'DEF-02/unknown-node',
  'DEF-02/cycle',
  'DEF-02/too-many-nodes',
  'DEF-02/too-many-edges',
  'DEF-02/unknown-type',
  'DEF-02/unknown-port',
  'DEF-02/trigger-input',
  'DEF-02/no-trigger',
  'DEF-02/config',
  'DEF-02/policy',
  /** Warnings (never block a save): a node no message can reach, a trigger that feeds nothing. */
  'DEF-02/unconnected',
  'DEF-02/no-children',
]);
export type ValidationCode = z.infer<typeof ValidationCode>;

export const ValidationIssue = z.object({
  code: ValidationCode,
  severity: z.enum(['error', 'warning']),
  message: z.string(),
  /** The node at fault, when there is one. */
  nodeId: z.string().optional(),
  /** Every node involved (a cycle names all of its nodes). */
  nodeIds: z.array(z.string()).optional(),
  /** Index of the edge at fault in `edges`. */
  edgeIndex: z.number().int().optional(),
  /** Path of the offending value inside the definition, e.g. `nodes.2.config.engine.retry`. */
  path: z.string().optional(),
});
export type ValidationIssue = z.infer<typeof ValidationIssue>;

export function hasErrors(issues: readonly ValidationIssue[]): boolean {
  return issues.some((i) => i.severity === 'error');
}

/** Joins a zod-style path into the dotted form used in issues and API errors. */
export function joinPath(path: ReadonlyArray<PropertyKey>): string {
  return path.map((p) => String(p)).join('.');
}
