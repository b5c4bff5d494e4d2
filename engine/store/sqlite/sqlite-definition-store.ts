import type Database from 'better-sqlite3';
import type { StoredWorkflow } from '../../../shared/api/workflows.schema';
import type { WorkflowDefinition } from '../../../shared/workflow/definition.schema';
import { CURRENT_SELECT, sessionsOf, storedOf, versionEntryOf, type VersionRow } from '../definition-rows';
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
import { openDatabase } from './open-database';

const SQL = {
  current: `${CURRENT_SELECT} WHERE w.session = ? AND w.workflow_id = ?`,
  listAll: `${CURRENT_SELECT} ORDER BY w.session, w.workflow_id`,
  listSession: `${CURRENT_SELECT} WHERE w.session = ? ORDER BY w.workflow_id`,
  versions: 'SELECT version, saved_at, note FROM workflow_versions WHERE session = ? AND workflow_id = ? ORDER BY seq DESC',
  version: 'SELECT session, workflow_id, version, saved_at, note, definition FROM workflow_versions WHERE session = ? AND workflow_id = ? AND version = ?',
  currentVersion: 'SELECT version FROM workflows WHERE session = ? AND workflow_id = ?',
  nextSeq: 'SELECT COALESCE(MAX(seq), 0) + 1 AS seq FROM workflow_versions WHERE session = ? AND workflow_id = ?',
  upsertVersion: `
    INSERT INTO workflow_versions (session, workflow_id, version, seq, saved_at, note, definition) VALUES (?, ?, ?, ?, ?, ?, ?)
    ON CONFLICT (session, workflow_id, version) DO UPDATE SET seq = excluded.seq, saved_at = excluded.saved_at, note = excluded.note`,
  setCurrent: `
    INSERT INTO workflows (session, workflow_id, version) VALUES (?, ?, ?)
    ON CONFLICT (session, workflow_id) DO UPDATE SET version = excluded.version`,
  trim: `
    DELETE FROM workflow_versions WHERE session = @session AND workflow_id = @workflowId AND seq <= (
      SELECT seq FROM workflow_versions WHERE session = @session AND workflow_id = @workflowId ORDER BY seq DESC LIMIT 1 OFFSET @keep)`,
  deleteWorkflow: 'DELETE FROM workflows WHERE session = ? AND workflow_id = ?',
  deleteVersions: 'DELETE FROM workflow_versions WHERE session = ? AND workflow_id = ?',
  sessions: 'SELECT session, default_execution_timeout_seconds AS timeout FROM sessions',
  session: 'SELECT default_execution_timeout_seconds AS timeout FROM sessions WHERE session = ?',
  workflowCounts: 'SELECT session, COUNT(*) AS count FROM workflows GROUP BY session',
  workflowCount: 'SELECT COUNT(*) AS count FROM workflows WHERE session = ?',
  putSession: `
    INSERT INTO sessions (session, default_execution_timeout_seconds) VALUES (?, ?)
    ON CONFLICT (session) DO UPDATE SET default_execution_timeout_seconds = excluded.default_execution_timeout_seconds`,
  renameSettings: 'UPDATE sessions SET session = ? WHERE session = ?',
  renameWorkflows: 'UPDATE workflows SET session = ? WHERE session = ?',
  renameVersions: 'UPDATE workflow_versions SET session = ? WHERE session = ?',
  deleteSettings: 'DELETE FROM sessions WHERE session = ?',
  deleteSessionWorkflows: 'DELETE FROM workflows WHERE session = ?',
  deleteSessionVersions: 'DELETE FROM workflow_versions WHERE session = ?',
} as const;

type Statements = { [K in keyof typeof SQL]: Database.Statement };

/**
 * Definitions in SQLite (DEF-01, DUR-05): the desktop default, `<data>/yukta.db`. Every write is one
 * immediate transaction, so a save, a rename or a whole session configuration is all or nothing, also
 * against another process on the same file; of two concurrent saves the later one becomes current.
 */
export class SqliteDefinitionStore implements DefinitionStore {
  private readonly sql: Statements;

  /** Uses an open, migrated database (see `openDatabase`); `ownsDatabase` closes it on `close()`. */
  constructor(
    private readonly db: Database.Database,
    private readonly ownsDatabase = false,
  ) {
    this.sql = Object.fromEntries(Object.entries(SQL).map(([k, text]) => [k, db.prepare(text)])) as Statements;
  }

  /** Opens (and migrates) the database file and returns a store that closes it on `close()`. */
  static open(file: string): SqliteDefinitionStore {
    return new SqliteDefinitionStore(openDatabase(file), true);
  }

  async list(session?: string): Promise<StoredWorkflow[]> {
    const rows = (session === undefined ? this.sql.listAll.all() : this.sql.listSession.all(session)) as VersionRow[];
    return rows.map(storedOf);
  }

  async get(session: string, workflowId: string): Promise<StoredWorkflow | null> {
    const row = this.sql.current.get(session, workflowId) as VersionRow | undefined;
    return row ? storedOf(row) : null;
  }

  async save(session: string, definition: WorkflowDefinition, options: SaveOptions): Promise<{ changed: boolean }> {
    return this.db.transaction(() => this.saveNow(session, definition, options)).immediate();
  }

  async versions(session: string, workflowId: string): Promise<VersionEntry[]> {
    const rows = this.sql.versions.all(session, workflowId) as Array<Pick<VersionRow, 'version' | 'saved_at' | 'note'>>;
    return rows.map(versionEntryOf);
  }

  async getVersion(session: string, workflowId: string, version: string): Promise<StoredWorkflow | null> {
    const row = this.sql.version.get(session, workflowId, version) as VersionRow | undefined;
    return row ? storedOf(row) : null;
  }

  async deleteWorkflow(session: string, workflowId: string): Promise<boolean> {
    return this.db
      .transaction(() => {
        const deleted = this.sql.deleteWorkflow.run(session, workflowId).changes > 0;
        this.sql.deleteVersions.run(session, workflowId);
        return deleted;
      })
      .immediate();
  }

  async listSessions(): Promise<StoredSession[]> {
    const settings = new Map((this.sql.sessions.all() as Array<{ session: string; timeout: number }>).map((r) => [r.session, r.timeout]));
    const counts = new Map((this.sql.workflowCounts.all() as Array<{ session: string; count: number }>).map((r) => [r.session, r.count]));
    return sessionsOf(settings, counts);
  }

  async getSession(session: string): Promise<StoredSession | null> {
    return this.sessionNow(session);
  }

  async putSession(session: string, settings: SessionSettings): Promise<void> {
    this.sql.putSession.run(session, settings.defaultExecutionTimeoutSeconds);
  }

  async renameSession(from: string, to: string): Promise<RenameOutcome> {
    return this.db
      .transaction((): RenameOutcome => {
        if (!this.sessionNow(from)) return 'not-found';
        if (this.sessionNow(to)) return 'exists';
        for (const s of [this.sql.renameSettings, this.sql.renameWorkflows, this.sql.renameVersions]) s.run(to, from);
        return 'renamed';
      })
      .immediate();
  }

  async deleteSession(session: string): Promise<boolean> {
    return this.db
      .transaction(() => {
        const existed = this.sessionNow(session) !== null;
        for (const s of [this.sql.deleteSettings, this.sql.deleteSessionWorkflows, this.sql.deleteSessionVersions]) s.run(session);
        return existed;
      })
      .immediate();
  }

  async applySession(session: string, settings: SessionSettings, workflows: readonly SessionWorkflowSave[]): Promise<Array<{ changed: boolean }>> {
    return this.db
      .transaction(() => {
        this.sql.putSession.run(session, settings.defaultExecutionTimeoutSeconds);
        return workflows.map((w) => this.saveNow(session, w.definition, w.options));
      })
      .immediate();
  }

  async close(): Promise<void> {
    if (this.ownsDatabase && this.db.open) this.db.close();
  }

  /** One save; callers wrap it in a transaction. */
  private saveNow(session: string, definition: WorkflowDefinition, options: SaveOptions): { changed: boolean } {
    const workflowId = definition.workflowId;
    const current = this.sql.currentVersion.get(session, workflowId) as { version: string } | undefined;
    if (current?.version === options.version) return { changed: false };
    const { seq } = this.sql.nextSeq.get(session, workflowId) as { seq: number };
    this.sql.upsertVersion.run(session, workflowId, options.version, seq, options.savedAt, options.note ?? null, JSON.stringify(definition));
    this.sql.setCurrent.run(session, workflowId, options.version);
    this.sql.trim.run({ session, workflowId, keep: keptVersions(options) });
    return { changed: true };
  }

  private sessionNow(session: string): StoredSession | null {
    const settings = this.sql.session.get(session) as { timeout: number } | undefined;
    const { count } = this.sql.workflowCount.get(session) as { count: number };
    if (!settings && count === 0) return null;
    return { session, workflowCount: count, settings: settings ? { defaultExecutionTimeoutSeconds: settings.timeout } : null };
  }
}
