/**
 * The store the kill -9 harness's children share (`crash-soak.ts`), and what the harness reads of it after each kill, with the host dead so nothing writes:
 * whether the store is sound, and the nodes with a stored end marker per run (a resume must not run them
 * again). SQLite: `PRAGMA integrity_check` of `<data>/yukta.db`. PostgreSQL (DUR-04): `amcheck`'s
 * `bt_index_check` over every index of the soak's schema (a full read of each table where amcheck cannot
 * be installed).
 */
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';

export interface Inspection {
  ok: boolean;
  /** Integrity checks this inspection made (0 for the memory store: nothing to check). */
  checks: number;
  marked: Map<string, string[]>;
}

/** One store the soak can look into. */
export interface SoakStoreInspector {
  inspect(): Promise<Inspection>;
  close(): Promise<void>;
}

const MARKED_SQL = "SELECT execution_id AS run, node_id AS node FROM checkpoint_nodes WHERE end_status IS NOT NULL AND node_id NOT LIKE 'signal:%'";

function byRun(rows: Array<{ run: string; node: string }>): Map<string, string[]> {
  const marked = new Map<string, string[]>();
  for (const r of rows) marked.set(r.run, [...(marked.get(r.run) ?? []), r.node]);
  return marked;
}

/** The SQLite database of a data folder (none for the memory store). */
export function sqliteInspector(dataDir: string): SoakStoreInspector {
  return {
    async inspect() {
      const file = join(dataDir, 'yukta.db');
      if (!existsSync(file)) return { ok: true, checks: 0, marked: new Map() };
      const db = new Database(file);
      try {
        const result = db.pragma('integrity_check', { simple: true });
        return { ok: result === 'ok', checks: 1, marked: byRun(db.prepare(MARKED_SQL).all() as Array<{ run: string; node: string }>) };
      } finally {
        db.close();
      }
    },
    close: async () => undefined,
  };
}

/** The soak's schema of a PostgreSQL database. */
export async function postgresInspector(url: string, schema: string): Promise<SoakStoreInspector> {
  const pool = new pg.Pool({ connectionString: url, max: 2, options: `-c search_path=${schema}` });
  let amcheck = true;
  try {
    await pool.query('CREATE EXTENSION IF NOT EXISTS amcheck SCHEMA public');
  } catch {
    amcheck = false; // not a superuser, or contrib missing: a full read of every table instead
  }
  return {
    async inspect() {
      try {
        if (amcheck) {
          const { rows } = await pool.query<{ index: string }>(
            "SELECT c.oid::regclass::text AS index FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relam = (SELECT oid FROM pg_am WHERE amname = 'btree')",
            [schema],
          );
          for (const r of rows) await pool.query('SELECT public.bt_index_check($1::regclass, true)', [r.index]);
        } else {
          const { rows } = await pool.query<{ table: string }>('SELECT table_name AS table FROM information_schema.tables WHERE table_schema = $1', [schema]);
          for (const r of rows) await pool.query(`SELECT COUNT(*) FROM "${r.table}"`);
        }
        return { ok: true, checks: 1, marked: byRun((await pool.query<{ run: string; node: string }>(MARKED_SQL)).rows) };
      } catch {
        return { ok: false, checks: 1, marked: new Map() };
      }
    },
    close: () => pool.end(),
  };
}

export interface SoakStore {
  /** Environment of each child (the PostgreSQL URL and schema). */
  env: Record<string, string>;
  inspector: SoakStoreInspector;
  /** Removes the store's own schema (PostgreSQL) once every check passed. */
  drop(): Promise<void>;
  /** Where the store is kept after a failed soak, for the log. */
  where: string;
}

/** The store the children share: SQLite (or memory) in the data folder, or a schema of its own on PostgreSQL. */
export async function soakStore(kind: 'sqlite' | 'memory' | 'postgres', dataDir: string, url?: string): Promise<SoakStore> {
  if (kind !== 'postgres') return { env: {}, inspector: sqliteInspector(dataDir), drop: async () => undefined, where: '' };
  if (!url) throw new Error('the postgres soak needs postgresUrl');
  const schema = `soak_${randomBytes(4).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(sql).finally(() => client.end());
  };
  await admin(`CREATE SCHEMA ${schema}`);
  const env = { YUKTA_POSTGRES_URL: url, YUKTA_POSTGRES_SCHEMA: schema, YUKTA_POSTGRES_POOL_SIZE: '4' };
  return {
    env,
    inspector: await postgresInspector(url, schema),
    drop: () => admin(`DROP SCHEMA ${schema} CASCADE`),
    where: ` and PostgreSQL schema ${schema} kept`,
  };
}
