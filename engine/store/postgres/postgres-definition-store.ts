import type pg from 'pg';
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
import { YUKTA_LOCK_CLASS } from './migrate';
import { inTransaction, pgText, preparedStatements } from './postgres-connection';

const SQL = preparedStatements('def', {
  current: `${CURRENT_SELECT} WHERE w.session = $1 AND w.workflow_id = $2`,
  listAll: `${CURRENT_SELECT} ORDER BY w.session, w.workflow_id`,
  listSession: `${CURRENT_SELECT} WHERE w.session = $1 ORDER BY w.workflow_id`,
  versions: 'SELECT version, saved_at, note FROM workflow_versions WHERE session = $1 AND workflow_id = $2 ORDER BY seq DESC',
  version: 'SELECT session, workflow_id, version, saved_at, note, definition FROM workflow_versions WHERE session = $1 AND workflow_id = $2 AND version = $3',
  currentVersion: 'SELECT version FROM workflows WHERE session = $1 AND workflow_id = $2',
  nextSeq: 'SELECT COALESCE(MAX(seq), 0) + 1 AS seq FROM workflow_versions WHERE session = $1 AND workflow_id = $2',
  upsertVersion: `
    INSERT INTO workflow_versions (session, workflow_id, version, seq, saved_at, note, definition) VALUES ($1, $2, $3, $4, $5, $6, $7)
    ON CONFLICT (session, workflow_id, version) DO UPDATE SET seq = EXCLUDED.seq, saved_at = EXCLUDED.saved_at, note = EXCLUDED.note`,
  setCurrent:
    'INSERT INTO workflows (session, workflow_id, version) VALUES ($1, $2, $3) ON CONFLICT (session, workflow_id) DO UPDATE SET version = EXCLUDED.version',
  trim: `
    DELETE FROM workflow_versions WHERE session = $1 AND workflow_id = $2 AND seq <= (
      SELECT seq FROM workflow_versions WHERE session = $1 AND workflow_id = $2 ORDER BY seq DESC LIMIT 1 OFFSET $3)`,
  deleteWorkflow: 'DELETE FROM workflows WHERE session = $1 AND workflow_id = $2',
  deleteVersions: 'DELETE FROM workflow_versions WHERE session = $1 AND workflow_id = $2',
  sessions: 'SELECT session, default_execution_timeout_seconds AS timeout FROM sessions',
  /** A session's settings and workflow count in one round trip (every start reads its session's timeout). */
  session:
    'SELECT (SELECT default_execution_timeout_seconds FROM sessions WHERE session = $1) AS timeout, (SELECT COUNT(*)::int FROM workflows WHERE session = $1) AS count',
  workflowCounts: 'SELECT session, COUNT(*)::int AS count FROM workflows GROUP BY session',
  putSession: `
    INSERT INTO sessions (session, default_execution_timeout_seconds) VALUES ($1, $2)
    ON CONFLICT (session) DO UPDATE SET default_execution_timeout_seconds = EXCLUDED.default_execution_timeout_seconds`,
  renameSettings: 'UPDATE sessions SET session = $1 WHERE session = $2',
  renameWorkflows: 'UPDATE workflows SET session = $1 WHERE session = $2',
  renameVersions: 'UPDATE workflow_versions SET session = $1 WHERE session = $2',
  deleteSettings: 'DELETE FROM sessions WHERE session = $1',
  deleteSessionWorkflows: 'DELETE FROM workflows WHERE session = $1',
  deleteSessionVersions: 'DELETE FROM workflow_versions WHERE session = $1',
  /** Definition writes of every host on this schema, one at a time (they are rare: a person saving). */
  lock: `SELECT pg_advisory_xact_lock(${YUKTA_LOCK_CLASS}, hashtext('definitions:' || current_schema()))`,
});

type Db = Pick<pg.PoolClient, 'query'>;

/**
 * Definitions and sessions on PostgreSQL (DEF-01, DUR-05, DUR-04), the same tables as SQLite. Every write
 * is one transaction holding the schema's definitions lock, so a save, a rename or a whole session
 * configuration is all or nothing, also against another host on the same database; this store's own
 * writes run in call order, so of two concurrent saves the later call becomes current. Reads run at once,
 * side by side, but every answer comes back in call order, as from the local stores: a caller that reads
 * and then writes (the engine's save) keeps its place behind an earlier one.
 */
export class PostgresDefinitionStore implements DefinitionStore {
  private writing: Promise<unknown> = Promise.resolve();
  /** The answer of the latest call: each answer waits for the ones called before it. */
  private answered: Promise<unknown> = Promise.resolve();

  constructor(private readonly pool: pg.Pool) {}

  list(session?: string): Promise<StoredWorkflow[]> {
    return this.inOrder(async () => {
      const rows = (session === undefined ? await this.pool.query<VersionRow>(SQL.listAll()) : await this.pool.query<VersionRow>(SQL.listSession([session])))
        .rows;
      return rows.map(storedOf);
    });
  }

  get(session: string, workflowId: string): Promise<StoredWorkflow | null> {
    return this.inOrder(async () => {
      const row = (await this.pool.query<VersionRow>(SQL.current([session, workflowId]))).rows[0];
      return row ? storedOf(row) : null;
    });
  }

  save(session: string, definition: WorkflowDefinition, options: SaveOptions): Promise<{ changed: boolean }> {
    return this.write((db) => saveNow(db, session, definition, options));
  }

  versions(session: string, workflowId: string): Promise<VersionEntry[]> {
    return this.inOrder(async () => {
      const rows = (await this.pool.query<Pick<VersionRow, 'version' | 'saved_at' | 'note'>>(SQL.versions([session, workflowId]))).rows;
      return rows.map(versionEntryOf);
    });
  }

  getVersion(session: string, workflowId: string, version: string): Promise<StoredWorkflow | null> {
    return this.inOrder(async () => {
      const row = (await this.pool.query<VersionRow>(SQL.version([session, workflowId, version]))).rows[0];
      return row ? storedOf(row) : null;
    });
  }

  deleteWorkflow(session: string, workflowId: string): Promise<boolean> {
    return this.write(async (db) => {
      const deleted = ((await db.query(SQL.deleteWorkflow([session, workflowId]))).rowCount ?? 0) > 0;
      await db.query(SQL.deleteVersions([session, workflowId]));
      return deleted;
    });
  }

  listSessions(): Promise<StoredSession[]> {
    return this.inOrder(() => this.sessionsNow());
  }

  private async sessionsNow(): Promise<StoredSession[]> {
    const [settingRows, countRows] = await Promise.all([
      this.pool.query<{ session: string; timeout: number }>(SQL.sessions()),
      this.pool.query<{ session: string; count: number }>(SQL.workflowCounts()),
    ]);
    return sessionsOf(new Map(settingRows.rows.map((r) => [r.session, r.timeout])), new Map(countRows.rows.map((r) => [r.session, r.count])));
  }

  getSession(session: string): Promise<StoredSession | null> {
    return this.inOrder(() => sessionNow(this.pool, session));
  }

  putSession(session: string, settings: SessionSettings): Promise<void> {
    return this.write(async (db) => void (await db.query(SQL.putSession([session, settings.defaultExecutionTimeoutSeconds]))));
  }

  renameSession(from: string, to: string): Promise<RenameOutcome> {
    return this.write(async (db): Promise<RenameOutcome> => {
      if (!(await sessionNow(db, from))) return 'not-found';
      if (await sessionNow(db, to)) return 'exists';
      for (const sql of [SQL.renameSettings, SQL.renameWorkflows, SQL.renameVersions]) await db.query(sql([to, from]));
      return 'renamed';
    });
  }

  deleteSession(session: string): Promise<boolean> {
    return this.write(async (db) => {
      const existed = (await sessionNow(db, session)) !== null;
      for (const sql of [SQL.deleteSettings, SQL.deleteSessionWorkflows, SQL.deleteSessionVersions]) await db.query(sql([session]));
      return existed;
    });
  }

  applySession(session: string, settings: SessionSettings, workflows: readonly SessionWorkflowSave[]): Promise<Array<{ changed: boolean }>> {
    return this.write(async (db) => {
      await db.query(SQL.putSession([session, settings.defaultExecutionTimeoutSeconds]));
      const results: Array<{ changed: boolean }> = [];
      for (const w of workflows) results.push(await saveNow(db, session, w.definition, w.options));
      return results;
    });
  }

  /** The pool belongs to the host's database (closed with it). */
  async close(): Promise<void> {
    await this.writing.catch(() => undefined);
  }

  /** One write: after this store's earlier ones, in a transaction holding the definitions lock. */
  private write<T>(body: (db: Db) => Promise<T>): Promise<T> {
    const run = this.writing.catch(() => undefined).then(() => this.transaction(body));
    this.writing = run;
    return this.inOrder(() => run);
  }

  /** Starts a call now; its answer (or failure) is handed over once every earlier call's has been. */
  private inOrder<T>(call: () => Promise<T>): Promise<T> {
    const result = call();
    const answer = this.answered.then(
      () => result,
      () => result,
    );
    this.answered = answer.catch(() => undefined);
    return answer;
  }

  private transaction<T>(body: (db: Db) => Promise<T>): Promise<T> {
    return inTransaction(this.pool, async (client) => {
      await client.query(SQL.lock());
      return body(client);
    });
  }
}

/** One save inside a write's transaction. */
async function saveNow(db: Db, session: string, definition: WorkflowDefinition, options: SaveOptions): Promise<{ changed: boolean }> {
  const workflowId = definition.workflowId;
  const current = (await db.query<{ version: string }>(SQL.currentVersion([session, workflowId]))).rows[0];
  if (current?.version === options.version) return { changed: false };
  const seq = Number((await db.query<{ seq: string }>(SQL.nextSeq([session, workflowId]))).rows[0]!.seq);
  await db.query(
    SQL.upsertVersion([
      session,
      workflowId,
      options.version,
      seq,
      options.savedAt,
      options.note === undefined ? null : pgText(options.note),
      JSON.stringify(definition),
    ]),
  );
  await db.query(SQL.setCurrent([session, workflowId, options.version]));
  await db.query(SQL.trim([session, workflowId, keptVersions(options)]));
  return { changed: true };
}

async function sessionNow(db: Db, session: string): Promise<StoredSession | null> {
  const { timeout, count } = (await db.query<{ timeout: number | null; count: number }>(SQL.session([session]))).rows[0]!;
  if (timeout === null && count === 0) return null;
  return { session, workflowCount: count, settings: timeout === null ? null : { defaultExecutionTimeoutSeconds: timeout } };
}
