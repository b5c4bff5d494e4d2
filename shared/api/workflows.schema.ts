import { z } from 'zod';
import { WorkflowDefinition } from '../workflow/definition.schema';

export const WorkflowSummary = z.object({
  session: z.string(),
  workflowId: z.string(),
  description: z.string(),
  /** Content hash of the current definition (DEF-01). */
  version: z.string(),
  savedAt: z.number(),
  nodeCount: z.number().int(),
});
export type WorkflowSummary = z.infer<typeof WorkflowSummary>;

export const StoredWorkflow = z.object({
  session: z.string(),
  definition: WorkflowDefinition,
  version: z.string(),
  savedAt: z.number(),
  note: z.string().optional(),
});
export type StoredWorkflow = z.infer<typeof StoredWorkflow>;

export const SaveResult = z.object({
  workflowId: z.string(),
  version: z.string(),
  /** False when the graph was identical to the current version (no new version). */
  changed: z.boolean(),
});
export type SaveResult = z.infer<typeof SaveResult>;
