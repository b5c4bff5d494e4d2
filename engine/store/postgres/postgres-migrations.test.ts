import type pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { WorkflowDefinition } from '../../../shared/workflow/definition.schema';
import { contentHash } from '../../definitions/content-hash';
import { testDatabase } from '../../test-support/postgres-test-database';
import type { Migration } from '../migration';
import { migratePostgres, postgresSchemaVersion } from './migrate';
import { POSTGRES_MIGRATIONS } from './migrations';
import { openPool } from './postgres-connection';
import { openPostgresDatabase } from './postgres-database';
import { PostgresDefinitionStore } from './postgres-definition-store';
import { PostgresExecutionLog } from './postgres-execution-log';

const pools: pg.Pool[] = [];
afterEach(async () => {
  await Promise.all(pools.splice(0).map((p) => p.end()));
});

async function freshPool(): Promise<{ pool: pg.Pool; schema: string; url: string }> {
  const db = await testDatabase();
  const schema = await db.freshSchema();
  const pool = openPool({ url: db.url, schema, poolSize: 4 });
  pools.push(pool);
  return { pool, schema, url: db.url };
}

const tables = async (pool: pg.Pool, schema: string) =>
  (await pool.query<{ table_name: string }>('SELECT table_name FROM information_schema.tables WHERE table_schema = $1 ORDER BY table_name', [schema])).rows.map(
    (r) => r.table_name,
  );

describe('DUR-04 PostgreSQL migrations', () => {
  it('from empty: applies every migration once, in order, and records each', async () => {
    const { pool, schema } = await freshPool();
    expect(await postgresSchemaVersion(pool, schema)).toBe(0);
    expect(await migratePostgres(pool, POSTGRES_MIGRATIONS, { schema, now: () => 7 })).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(await migratePostgres(pool, POSTGRES_MIGRATIONS, { schema })).toEqual([]);
    expect((await pool.query('SELECT version, name, applied_at FROM schema_version ORDER BY version')).rows).toEqual(
      POSTGRES_MIGRATIONS.map((m) => ({ version: m.version, name: m.name, applied_at: 7 })),
    );
    expect(await tables(pool, schema)).toEqual([
      'checkpoint_messages',
      'checkpoint_nodes',
      'execution_log',
      'key_values',
      'leader_lease',
      'schema_version',
      'sessions',
      'store_writers',
      'workflow_versions',
      'workflows',
    ]);
  });

  for (let from = 1; from < POSTGRES_MIGRATIONS.length; from++) {
    it(`from version ${from}: applies only the newer ones and keeps what is stored`, async () => {
      const { pool, schema, url } = await freshPool();
      expect(await migratePostgres(pool, POSTGRES_MIGRATIONS.slice(0, from), { schema })).toEqual(POSTGRES_MIGRATIONS.slice(0, from).map((m) => m.version));
      // A definition saved at version 1 (the first migration holds them) survives every later migration.
      const d = WorkflowDefinition.parse({ workflowId: 'kept', description: `saved at v${from}`, nodes: [], edges: [] });
      await pool.query('INSERT INTO workflow_versions (session, workflow_id, version, seq, saved_at, note, definition) VALUES ($1, $2, $3, 1, 5, NULL, $4)', [
        's',
        'kept',
        contentHash(d),
        JSON.stringify(d),
      ]);
      await pool.query('INSERT INTO workflows (session, workflow_id, version) VALUES ($1, $2, $3)', ['s', 'kept', contentHash(d)]);
      const db = await openPostgresDatabase({ url, schema, poolSize: 2 });
      try {
        expect(await postgresSchemaVersion(db.pool, schema)).toBe(POSTGRES_MIGRATIONS.length);
        expect(await new PostgresDefinitionStore(db.pool).get('s', 'kept')).toEqual({ session: 's', definition: d, version: contentHash(d), savedAt: 5 });
        const log = new PostgresExecutionLog(db.writer);
        log.append({ runId: 'r', type: 'RUN_STARTED', status: 'PENDING', actor: 'engine', at: 1 });
        await log.flush();
        expect(await log.runEntries('r')).toHaveLength(1);
      } finally {
        await db.close();
      }
    });
  }

  it('two hosts starting together on one database migrate it once (the advisory lock), neither fails', async () => {
    const { schema, url } = await freshPool();
    const hosts = Array.from({ length: 4 }, () => openPool({ url, schema, poolSize: 2 }));
    pools.push(...hosts);
    const applied = await Promise.all(hosts.map((pool) => migratePostgres(pool, POSTGRES_MIGRATIONS, { schema })));
    expect(applied.flat().sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(applied.filter((a) => a.length > 0)).toHaveLength(1);
    expect((await hosts[0]!.query('SELECT COUNT(*)::int AS n FROM schema_version')).rows[0]).toEqual({ n: 7 });
  });

  it('rolls a failing migration back, leaving the schema as it was', async () => {
    const { pool, schema } = await freshPool();
    await migratePostgres(pool, POSTGRES_MIGRATIONS.slice(0, 1), { schema });
    const broken: Migration = { version: 2, name: 'broken', sql: 'CREATE TABLE half (x integer); SELECT * FROM no_such_table;' };
    await expect(migratePostgres(pool, [POSTGRES_MIGRATIONS[0]!, broken], { schema })).rejects.toThrow('no_such_table');
    expect(await postgresSchemaVersion(pool, schema)).toBe(1);
    expect(await tables(pool, schema)).not.toContain('half');
  });

  it('refuses a database from a newer app and migrations out of order', async () => {
    const { pool, schema } = await freshPool();
    await migratePostgres(pool, POSTGRES_MIGRATIONS, { schema });
    await pool.query("INSERT INTO schema_version VALUES (99, 'future', 0)");
    await expect(migratePostgres(pool, POSTGRES_MIGRATIONS, { schema })).rejects.toThrow('newer than this app');
    await expect(migratePostgres(pool, [POSTGRES_MIGRATIONS[1]!], { schema })).rejects.toThrow('expected 1');
  });

  it('an unreachable or wrong server fails the open naming user@host:port/database, never the password', async () => {
    const url = 'postgres://yukta:s3cret-canary@127.0.0.1:1/nowhere';
    const failure = (await openPostgresDatabase({ url }).catch((e: unknown) => e)) as Error;
    expect(failure.message).toMatch(/^cannot open the PostgreSQL database yukta@127\.0\.0\.1:1\/nowhere: /);
    expect(JSON.stringify({ message: failure.message, stack: failure.stack, cause: String(failure.cause) })).not.toContain('s3cret-canary');
  });
});
