import type { StoredWorkflow } from '../../../shared/api/workflows.schema';
import type { WorkflowDefinition } from '../../../shared/workflow/definition.schema';
import {
  keptVersions,
  type DefinitionStore,
  type RenameOutcome,
  type SaveOptions,
  type SessionSettings,
  type SessionWorkflowSave,
  type StoredSession,
  type VersionEntry,
} from '../definition-store';

interface Entry extends VersionEntry {
  definition: WorkflowDefinition;
}

/**
 * Definitions in memory: for tests, the CLI's one-shot runs and embedding. Every method runs without an
 * await, so each is atomic and concurrent calls apply in call order.
 */
export class MemoryDefinitionStore implements DefinitionStore {
  /** session → workflow → history, newest first (index 0 is current). */
  private readonly workflows = new Map<string, Map<string, Entry[]>>();
  private readonly sessions = new Map<string, SessionSettings>();

  async list(session?: string): Promise<StoredWorkflow[]> {
    const out: StoredWorkflow[] = [];
    for (const [s, workflows] of this.workflows) {
      if (session !== undefined && s !== session) continue;
      for (const history of workflows.values()) out.push(stored(s, history[0]!));
    }
    return out;
  }

  async get(session: string, workflowId: string): Promise<StoredWorkflow | null> {
    const current = this.history(session, workflowId)[0];
    return current ? stored(session, current) : null;
  }

  async save(session: string, definition: WorkflowDefinition, options: SaveOptions): Promise<{ changed: boolean }> {
    return this.saveNow(session, definition, options);
  }

  async versions(session: string, workflowId: string): Promise<VersionEntry[]> {
    return this.history(session, workflowId).map(({ definition: _definition, ...entry }) => ({ ...entry }));
  }

  async getVersion(session: string, workflowId: string, version: string): Promise<StoredWorkflow | null> {
    const entry = this.history(session, workflowId).find((e) => e.version === version);
    return entry ? stored(session, entry) : null;
  }

  async deleteWorkflow(session: string, workflowId: string): Promise<boolean> {
    const workflows = this.workflows.get(session);
    const deleted = workflows?.delete(workflowId) ?? false;
    if (workflows?.size === 0) this.workflows.delete(session);
    return deleted;
  }

  async listSessions(): Promise<StoredSession[]> {
    const ids = new Set([...this.sessions.keys(), ...this.workflows.keys()]);
    return [...ids].sort().map((id) => this.session(id)!);
  }

  async getSession(session: string): Promise<StoredSession | null> {
    return this.session(session);
  }

  async putSession(session: string, settings: SessionSettings): Promise<void> {
    this.sessions.set(session, { ...settings });
  }

  async renameSession(from: string, to: string): Promise<RenameOutcome> {
    if (!this.session(from)) return 'not-found';
    if (this.session(to)) return 'exists';
    const settings = this.sessions.get(from);
    const workflows = this.workflows.get(from);
    if (settings) this.sessions.set(to, settings);
    if (workflows) this.workflows.set(to, workflows);
    this.sessions.delete(from);
    this.workflows.delete(from);
    return 'renamed';
  }

  async deleteSession(session: string): Promise<boolean> {
    const existed = this.session(session) !== null;
    this.sessions.delete(session);
    this.workflows.delete(session);
    return existed;
  }

  async applySession(session: string, settings: SessionSettings, workflows: readonly SessionWorkflowSave[]): Promise<Array<{ changed: boolean }>> {
    this.sessions.set(session, { ...settings });
    return workflows.map((w) => this.saveNow(session, w.definition, w.options));
  }

  async close(): Promise<void> {}

  private saveNow(session: string, definition: WorkflowDefinition, options: SaveOptions): { changed: boolean } {
    const history = this.history(session, definition.workflowId);
    if (history[0]?.version === options.version) return { changed: false };
    const entry: Entry = { version: options.version, savedAt: options.savedAt, definition: structuredClone(definition) };
    if (options.note !== undefined) entry.note = options.note;
    const next = [entry, ...history.filter((e) => e.version !== options.version)].slice(0, keptVersions(options));
    let workflows = this.workflows.get(session);
    if (!workflows) this.workflows.set(session, (workflows = new Map()));
    workflows.set(definition.workflowId, next);
    return { changed: true };
  }

  private history(session: string, workflowId: string): Entry[] {
    return this.workflows.get(session)?.get(workflowId) ?? [];
  }

  private session(id: string): StoredSession | null {
    const settings = this.sessions.get(id);
    const workflowCount = this.workflows.get(id)?.size ?? 0;
    if (!settings && workflowCount === 0) return null;
    return { session: id, workflowCount, settings: settings ? { ...settings } : null };
  }
}

function stored(session: string, entry: Entry): StoredWorkflow {
  const out: StoredWorkflow = { session, definition: structuredClone(entry.definition), version: entry.version, savedAt: entry.savedAt };
  if (entry.note !== undefined) out.note = entry.note;
  return out;
}
