import type { StoredWorkflow } from '../../shared/api/workflows.schema';
import type { WorkflowDefinition } from '../../shared/workflow/definition.schema';
import type { DefinitionStore, RenameOutcome, SaveOptions, SessionSettings, SessionWorkflowSave, StoredSession, VersionEntry } from '../store/definition-store';

/** What a write touched: one workflow (with its new definition when saved), or a whole session. */
export interface DefinitionWrite {
  session: string;
  workflowId?: string;
  definition?: WorkflowDefinition;
}

/**
 * A definition store that reports every successful write (save, delete, rename, apply), so schedules
 * of stored workflows (CRON_TRIGGER) follow the definitions whichever path wrote them.
 */
export class WatchedDefinitionStore implements DefinitionStore {
  private readonly watchers: Array<(write: DefinitionWrite) => void> = [];

  constructor(private readonly inner: DefinitionStore) {}

  /** Calls `watcher` after every successful write from now on (the cron schedules, built after the store). */
  watch(watcher: (write: DefinitionWrite) => void): void {
    this.watchers.push(watcher);
  }

  private async after<T>(write: Promise<T>, what: DefinitionWrite): Promise<T> {
    const result = await write;
    for (const watcher of this.watchers) watcher(what);
    return result;
  }

  list(session?: string): Promise<StoredWorkflow[]> {
    return this.inner.list(session);
  }
  get(session: string, workflowId: string): Promise<StoredWorkflow | null> {
    return this.inner.get(session, workflowId);
  }
  save(session: string, definition: WorkflowDefinition, options: SaveOptions): Promise<{ changed: boolean }> {
    return this.after(this.inner.save(session, definition, options), { session, workflowId: definition.workflowId, definition });
  }
  versions(session: string, workflowId: string): Promise<VersionEntry[]> {
    return this.inner.versions(session, workflowId);
  }
  getVersion(session: string, workflowId: string, version: string): Promise<StoredWorkflow | null> {
    return this.inner.getVersion(session, workflowId, version);
  }
  deleteWorkflow(session: string, workflowId: string): Promise<boolean> {
    return this.after(this.inner.deleteWorkflow(session, workflowId), { session, workflowId });
  }
  listSessions(): Promise<StoredSession[]> {
    return this.inner.listSessions();
  }
  getSession(session: string): Promise<StoredSession | null> {
    return this.inner.getSession(session);
  }
  putSession(session: string, settings: SessionSettings): Promise<void> {
    return this.inner.putSession(session, settings);
  }
  renameSession(from: string, to: string): Promise<RenameOutcome> {
    return this.after(this.inner.renameSession(from, to), { session: from });
  }
  deleteSession(session: string): Promise<boolean> {
    return this.after(this.inner.deleteSession(session), { session });
  }
  applySession(session: string, settings: SessionSettings, workflows: readonly SessionWorkflowSave[]): Promise<Array<{ changed: boolean }>> {
    return this.after(this.inner.applySession(session, settings, workflows), { session });
  }
  close(): Promise<void> {
    return this.inner.close();
  }
}
