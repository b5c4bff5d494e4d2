import { z } from 'zod';
import { WorkflowDefinition } from '../workflow/definition.schema';

/** A definition version (DEF-01), declared with the other branded ids. */
export { VersionId } from '../workflow/ids';
import { VersionIdOutput } from '../workflow/ids';

/** Newest versions kept per workflow (`yukta.definitions.max-versions`). */
export const DEFAULT_MAX_VERSIONS = 20;

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

/** One entry of a workflow's version history (newest first in every list). */
export const WorkflowVersion = z.object({
  version: z.string(),
  /** When this content was last saved (a save or restore of older content moves it to the top). */
  savedAt: z.number(),
  note: z.string().optional(),
  /** True for the version that is the workflow's current definition. */
  current: z.boolean(),
});
export type WorkflowVersion = z.infer<typeof WorkflowVersion>;

export const SaveResult = z.object({
  workflowId: z.string(),
  version: VersionIdOutput,
  /** False when the graph was identical to the current version (no new version). */
  changed: z.boolean(),
});
export type SaveResult = z.infer<typeof SaveResult>;
