/**
 * The PostgreSQL cases of bench/log-append (DUR-04), at `synchronous_commit` on and off: ours (the
 * PostgresExecutionLog through the one PostgresWriter, fed like the engine feeds it) against raw `pg`
 * multi-row inserts (`INSERT … VALUES (…), (…)`, one statement per batch of the size ours committed, one
 * after another) into the same table, at the same commit setting, on the same server.
 */
import { migratePostgres } from '../engine/store/postgres/migrate';
import { POSTGRES_MIGRATIONS } from '../engine/store/postgres/migrations';
import { openPool } from '../engine/store/postgres/postgres-connection';
import { openPostgresDatabase } from '../engine/store/postgres/postgres-database';
import { PostgresExecutionLog } from '../engine/store/postgres/postgres-execution-log';
import { Entries, produce, type LogAppendPair, type Result } from './log-entries';
import type { BenchServer } from './postgres-server';

type Commit = 'on' | 'off';
const COLUMNS = 6;

async function count(pool: { query: (sql: string) => Promise<{ rows: Array<{ n: number }> }> }, n: number): Promise<void> {
  const { rows } = await pool.query('SELECT COUNT(*)::int AS n FROM execution_log');
  if (rows[0]!.n !== n) throw new Error(`lost rows: ${rows[0]!.n}/${n}`);
}

async function ours(server: BenchServer, n: number, commit: Commit, chunk: number): Promise<Result> {
  const schema = await server.schema();
  const db = await openPostgresDatabase({ url: server.url, schema: schema.name, synchronousCommit: commit, poolSize: 4 });
  try {
    const log = new PostgresExecutionLog(db.writer, { compactAfter: Number.POSITIVE_INFINITY });
    const { seconds, ...lag } = await produce(log, n, chunk);
    await count(db.pool, n);
    return { seconds, batch: n / db.writer.commits, lag };
  } finally {
    await db.close();
    await schema.drop();
  }
}

/** `INSERT … VALUES ($1…$6), ($7…$12), …` for `rows` rows. */
function valuesSql(rows: number): string {
  const tuples = Array.from({ length: rows }, (_, r) => `(${Array.from({ length: COLUMNS }, (_, c) => `$${r * COLUMNS + c + 1}`).join(', ')})`);
  return `INSERT INTO execution_log (run_id, type, status, actor, at, data) VALUES ${tuples.join(', ')}`;
}

async function raw(server: BenchServer, n: number, commit: Commit, batch: number): Promise<Result> {
  const schema = await server.schema();
  const pool = openPool({ url: server.url, schema: schema.name, synchronousCommit: commit, poolSize: 1 });
  try {
    await migratePostgres(pool, POSTGRES_MIGRATIONS, { schema: schema.name });
    const entries = new Entries();
    const size = Math.max(1, Math.min(Math.round(batch), Math.floor(65_535 / COLUMNS)));
    const full = { name: `raw_values_${size}`, text: valuesSql(size) };
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i += size) {
      const rows = Math.min(size, n - i);
      const values: unknown[] = [];
      for (let j = 0; j < rows; j++) {
        const e = entries.next();
        values.push(e.runId, e.type, e.status, e.actor, e.at, e.data === undefined ? null : JSON.stringify(e.data));
      }
      await pool.query(rows === size ? { ...full, values } : { text: valuesSql(rows), values });
    }
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    await count(pool, n);
    return { seconds, batch: size };
  } finally {
    await pool.end();
    await schema.drop();
  }
}

export function postgresPairs(server: () => Promise<BenchServer>, chunk: number): LogAppendPair[] {
  return (['on', 'off'] as const).map((commit) => ({
    label: `PostgreSQL, synchronous_commit=${commit}`,
    ours: async (n) => ours(await server(), n, commit, chunk),
    raw: async (n, batch) => raw(await server(), n, commit, batch),
  }));
}
