import type { StoredWorkflow } from '../../shared/api/workflows.schema';
import type { WorkflowDefinition } from '../../shared/workflow/definition.schema';

export interface SaveOptions {
  /** Content hash of the definition (DEF-01), computed by the caller. */
  version: string;
  savedAt: number;
  note?: string;
}

/**
 * Where workflow definitions live (DEF-01). Every implementation passes the same contract suite
 * (`definition-store.contract.ts`). A save is all or nothing: a failed save leaves the previous version.
 */
export interface DefinitionStore {
  list(session?: string): Promise<StoredWorkflow[]>;
  get(session: string, workflowId: string): Promise<StoredWorkflow | null>;
  /** Stores the definition as current; `changed` is false when the version equals the current one. */
  save(session: string, definition: WorkflowDefinition, options: SaveOptions): Promise<{ changed: boolean }>;
}
