import { z } from 'zod';
import { NodeId } from '../workflow/ids';
import { BreakpointPath } from './control.schema';

/** Most breakpoints kept for one workflow (as many as it may have nodes). */
export const MAX_BREAKPOINTS = 500;

/**
 * A breakpoint set on the canvas (STU-04), kept per workflow outside its definition (it makes no version):
 * unconditional (holds before the node's next message) or on a value; a disabled one is kept but not sent
 * with a run.
 */
export const StoredBreakpoint = z.strictObject({
  nodeId: NodeId,
  enabled: z.boolean().default(true),
  condition: z
    .strictObject({ path: BreakpointPath, equals: z.string().max(10_000) })
    .nullable()
    .default(null),
});
export type StoredBreakpoint = z.infer<typeof StoredBreakpoint>;

export const WorkflowBreakpoints = z.object({
  breakpoints: z
    .array(StoredBreakpoint)
    .max(MAX_BREAKPOINTS)
    .refine((list) => new Set(list.map((b) => b.nodeId)).size === list.length, 'names a node twice'),
});
export type WorkflowBreakpoints = z.infer<typeof WorkflowBreakpoints>;
