/**
 * The PostgreSQL case of bench/run-per-task (DUR-04): ours, durable (the PostgreSQL log and checkpoints
 * through the one writer, opened as `--store postgres` opens them, at the server's synchronous_commit) against
 * a loop doing the same `pg` writes with the fewest statements, both at one `synchronous_commit` (on, the server's
 * default, or off): per run, one with RUN_STARTED (a start is
 * acknowledged once it is stored), then one with every row the engine writes for the run's nodes (each
 * node: its output message, end marker and NODE_FINISHED; the last task's output goes nowhere and is not
 * recorded) and RUN_FINISHED, deleting the checkpoints of the run that left the restart archive (100 runs
 * back) and the log rows of the run that left retention (1000 runs back), as the engine does.
 */
import type pg from 'pg';
import { openDurableStores } from '../engine/index';
import { migratePostgres } from '../engine/store/postgres/migrate';
import { POSTGRES_MIGRATIONS } from '../engine/store/postgres/migrations';
import { openPool } from '../engine/store/postgres/postgres-connection';
import { benchServer, type BenchServer } from './postgres-server';
import { ARCHIVED_RUNS, BENCH_VERSION, engineSide, RETAINED_RUNS, SCOPES, type Backend, type Side } from './run-per-task-engine';

const ROW_COUNT = 'SELECT (SELECT COUNT(*) FROM execution_log) + (SELECT COUNT(*) FROM checkpoint_messages) + (SELECT COUNT(*) FROM checkpoint_nodes) AS n';

const FINISHED = `WITH
  m AS (INSERT INTO checkpoint_messages (execution_id, node_id, seq, port, payload, metadata, message_id) SELECT $1, node, 1, 'out', payload, '{}', NULL FROM unnest($2::text[], $3::json[]) AS u(node, payload)),
  e AS (INSERT INTO checkpoint_nodes (execution_id, node_id, end_status) SELECT $1, node, 'SUCCESS' FROM unnest($4::text[]) AS u(node)),
  l AS (INSERT INTO execution_log (run_id, type, status, actor, at, data) SELECT $1, t, 'SUCCESS', 'engine', $5, d FROM unnest($6::text[], $7::json[]) WITH ORDINALITY AS u(t, d, o) ORDER BY o),
  dm AS (DELETE FROM checkpoint_messages WHERE execution_id = $8),
  dn AS (DELETE FROM checkpoint_nodes WHERE execution_id = $8),
  dl AS (DELETE FROM execution_log WHERE run_id = $9)
SELECT 1`;

async function rows(pool: pg.Pool): Promise<number> {
  return Number((await pool.query<{ n: string }>(ROW_COUNT)).rows[0]!.n);
}

/** The same rows as the durable engine writes, straight through `pg`, with the fewest statements. */
function loopSide(pool: pg.Pool): Side & { rowsPerRun(n: number): Promise<number> } {
  const ids: string[] = [];
  const started = (id: string, n: number, i: number) =>
    pool.query({
      name: 'loop_started',
      text: "INSERT INTO execution_log (run_id, type, status, actor, at, data) VALUES ($1, 'RUN_STARTED', 'PENDING', 'engine', $2, $3)",
      values: [
        id,
        Date.now(),
        JSON.stringify({ session: 'bench', workflowId: `chain-${n}`, version: BENCH_VERSION, payload: { i }, scope: SCOPES.get(n)!, inputs: [] }),
      ],
    });
  const finished = (id: string, n: number, i: number) => {
    const nodes = SCOPES.get(n)!;
    const payloads: string[] = [];
    let payload: Record<string, unknown> = { i };
    for (let k = 0; k < n; k++) {
      if (k > 0) payload = { ...payload, step: k };
      payloads.push(JSON.stringify(payload));
    }
    const types = [...nodes.map(() => 'NODE_FINISHED'), 'RUN_FINISHED'];
    const data = [...nodes.map((node) => JSON.stringify({ nodeId: node })), null];
    const archived = ids[ids.length - 1 - ARCHIVED_RUNS] ?? null;
    const retained = ids[ids.length - 1 - RETAINED_RUNS] ?? null;
    return pool.query({ name: 'loop_finished', text: FINISHED, values: [id, nodes.slice(0, n), payloads, nodes, Date.now(), types, data, archived, retained] });
  };
  let i = 0;
  return {
    name: 'loop of the same pg writes',
    async run(n, runs) {
      for (let r = 0; r < runs; r++) {
        const id = crypto.randomUUID();
        ids.push(id);
        await started(id, n, i);
        await new Promise<void>((resolve) => setImmediate(resolve)); // the acknowledgement's turn
        await finished(id, n, i++);
      }
    },
    close: () => pool.end(),
    async rowsPerRun(n) {
      const before = await rows(pool);
      const id = crypto.randomUUID();
      await started(id, n, -1);
      await finished(id, n, -1);
      return (await rows(pool)) - before;
    },
  };
}

async function durableSide(server: BenchServer, name: string, commit: Commit): Promise<{ side: Side; pool: () => pg.Pool; drop(): Promise<void> }> {
  const schema = await server.schema();
  const postgres = { url: server.url, schema: schema.name, poolSize: 4, synchronousCommit: commit };
  const stores = await openDurableStores({ kind: 'postgres', dataDir: null, settings: { postgres } });
  const side = await engineSide(name, stores);
  const pool = openPool({ url: server.url, schema: schema.name, poolSize: 1 });
  const drop = async (): Promise<void> => {
    await pool.end();
    await schema.drop();
  };
  return { side, pool: () => pool, drop };
}

type Commit = 'on' | 'off';

/** The PostgreSQL backend: YUKTA_TEST_PG_URL or a throwaway durable server, a schema per side, both at one synchronous_commit. */
export async function postgresBackend(commit: Commit): Promise<Backend> {
  const server = await benchServer();
  const ours = await durableSide(server, `ours, durable (PostgreSQL log + checkpoints, synchronous_commit=${commit})`, commit);
  const loopSchema = await server.schema();
  const loopPool = openPool({ url: server.url, schema: loopSchema.name, poolSize: 1, synchronousCommit: commit });
  await migratePostgres(loopPool, POSTGRES_MIGRATIONS, { schema: loopSchema.name });
  const loop = loopSide(loopPool);
  return {
    durable: ours.side,
    loop,
    loopLabel: 'loop of the same pg writes',
    async engineRowsPerRun(n) {
      const probe = await durableSide(server, 'probe', commit);
      const before = await rows(probe.pool());
      await probe.side.run(n, 1);
      const stored = (await rows(probe.pool())) - before;
      await probe.side.close();
      await probe.drop();
      return stored;
    },
    targetUs: 200,
    maxRatio: 1.3,
    async close() {
      await ours.side.close();
      await ours.drop();
      await loop.close();
      await loopSchema.drop();
      await server.stop();
    },
  };
}
