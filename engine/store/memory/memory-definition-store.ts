import type { StoredWorkflow } from '../../../shared/api/workflows.schema';
import type { WorkflowDefinition } from '../../../shared/workflow/definition.schema';
import type { DefinitionStore, SaveOptions } from '../definition-store';

/** Definitions in memory: for tests, the CLI's one-shot runs and embedding. */
export class MemoryDefinitionStore implements DefinitionStore {
  private readonly workflows = new Map<string, StoredWorkflow>();

  async list(session?: string): Promise<StoredWorkflow[]> {
    return [...this.workflows.values()].filter((w) => session === undefined || w.session === session).map((w) => structuredClone(w));
  }

  async get(session: string, workflowId: string): Promise<StoredWorkflow | null> {
    const w = this.workflows.get(key(session, workflowId));
    return w ? structuredClone(w) : null;
  }

  async save(session: string, definition: WorkflowDefinition, options: SaveOptions): Promise<{ changed: boolean }> {
    const k = key(session, definition.workflowId);
    if (this.workflows.get(k)?.version === options.version) return { changed: false };
    const stored: StoredWorkflow = { session, definition: structuredClone(definition), version: options.version, savedAt: options.savedAt };
    if (options.note !== undefined) stored.note = options.note;
    this.workflows.set(k, stored);
    return { changed: true };
  }
}

function key(session: string, workflowId: string): string {
  return `${session}\u0000${workflowId}`;
}
