import type pg from 'pg';
import type { Migration } from '../migration';
import { inTransaction } from './postgres-connection';

/** Class id of the advisory locks Yukta takes (the second key is the schema's hash). */
export const YUKTA_LOCK_CLASS = 0x59554b54; // "YUKT"

export interface MigrateOptions {
  /** The schema the tables live in (the connections' `search_path`); created if missing. Default: `public`. */
  schema?: string | undefined;
  now?: () => number;
}

/**
 * Brings the PostgreSQL schema up to date at start-up (DUR-04): in one transaction holding the advisory lock
 * of the schema (`pg_advisory_xact_lock`), applies every migration newer than the version recorded in
 * `schema_version`, in order. Two hosts starting together queue on the lock: the second finds the work
 * done. A failure rolls everything back, leaving the schema as it was. Refuses a database written by a
 * newer app. Returns the versions applied.
 */
export async function migratePostgres(pool: pg.Pool, migrations: readonly Migration[], options: MigrateOptions = {}): Promise<number[]> {
  migrations.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`migration "${m.name}" has version ${m.version}, expected ${i + 1}`);
  });
  const schema = options.schema ?? 'public';
  const now = options.now ?? Date.now;
  return inTransaction(pool, async (client) => {
    await client.query('SELECT pg_advisory_xact_lock($1, hashtext($2))', [YUKTA_LOCK_CLASS, schema]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${quoteIdent(schema)}`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${quoteIdent(schema)}.schema_version (version integer PRIMARY KEY, name text NOT NULL, applied_at double precision NOT NULL)`,
    );
    const current = Number(
      (await client.query<{ version: number }>(`SELECT COALESCE(MAX(version), 0) AS version FROM ${quoteIdent(schema)}.schema_version`)).rows[0]!.version,
    );
    if (current > migrations.length) {
      throw new Error(`the database schema "${schema}" is at version ${current}, newer than this app knows (${migrations.length}): use a newer Yukta Studio`);
    }
    const applied: number[] = [];
    for (const m of migrations.slice(current)) {
      await client.query(`SET LOCAL search_path TO ${quoteIdent(schema)}`);
      await client.query(m.sql);
      await client.query(`INSERT INTO ${quoteIdent(schema)}.schema_version (version, name, applied_at) VALUES ($1, $2, $3)`, [m.version, m.name, now()]);
      applied.push(m.version);
    }
    return applied;
  });
}

/** The schema version recorded in a schema (0 before the first migration). */
export async function postgresSchemaVersion(pool: pg.Pool, schema = 'public'): Promise<number> {
  const exists = await pool.query('SELECT 1 FROM information_schema.tables WHERE table_schema = $1 AND table_name = $2', [schema, 'schema_version']);
  if (exists.rowCount === 0) return 0;
  return Number(
    (await pool.query<{ version: number }>(`SELECT COALESCE(MAX(version), 0) AS version FROM ${quoteIdent(schema)}.schema_version`)).rows[0]!.version,
  );
}

function quoteIdent(name: string): string {
  return `"${name.replaceAll('"', '""')}"`;
}
