/**
 * The SQLite case of bench/run-per-task: ours, durable (the SQLite log and checkpoints at synchronous=NORMAL,
 * opened as the host opens them) against a loop doing the same SQLite writes with better-sqlite3.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openStores } from '../engine/index';
import { openDatabase } from '../engine/store/sqlite/open-database';
import { ARCHIVED_RUNS, BENCH_VERSION, engineSide, RETAINED_RUNS, SCOPES, type Backend, type Side } from './run-per-task-engine';

/** The same rows as the durable engine writes, straight through better-sqlite3, with the minimum of transactions. */
function loopSide(dir: string): Side & { rowsPerRun(n: number): Promise<number> } {
  const db = openDatabase(join(dir, 'yukta.db'));
  const log = db.prepare('INSERT INTO execution_log (run_id, type, status, actor, at, data) VALUES (?, ?, ?, ?, ?, ?)');
  const state = db.prepare('INSERT OR REPLACE INTO checkpoint_nodes (execution_id, node_id, end_status) VALUES (?, ?, ?)');
  const message = db.prepare(
    'INSERT OR REPLACE INTO checkpoint_messages (execution_id, node_id, seq, port, payload, metadata, message_id) VALUES (?, ?, ?, ?, ?, ?, ?)',
  );
  const dropMessages = db.prepare('DELETE FROM checkpoint_messages WHERE execution_id = ?');
  const dropStates = db.prepare('DELETE FROM checkpoint_nodes WHERE execution_id = ?');
  const dropLog = db.prepare('DELETE FROM execution_log WHERE run_id = ?');
  const ids: string[] = [];
  const started = db.transaction((id: string, n: number, i: number) => {
    const record = { session: 'bench', workflowId: `chain-${n}`, version: BENCH_VERSION, payload: { i }, scope: SCOPES.get(n)!, inputs: [] };
    log.run(id, 'RUN_STARTED', 'PENDING', 'engine', Date.now(), JSON.stringify(record));
  });
  const finished = db.transaction((id: string, n: number, i: number) => {
    const nodes = ['trigger', ...Array.from({ length: n }, (_, k) => `t${k + 1}`)];
    let payload: Record<string, unknown> = { i };
    for (let k = 0; k <= n; k++) {
      if (k > 0) payload = { ...payload, step: k };
      // The last task's output goes nowhere: it is not recorded, so it has only its end marker.
      if (k < n) message.run(id, nodes[k], 1, 'out', JSON.stringify(payload), '{}', null);
      state.run(id, nodes[k], 'SUCCESS');
      log.run(id, 'NODE_FINISHED', 'SUCCESS', 'engine', Date.now(), JSON.stringify({ nodeId: nodes[k] }));
    }
    log.run(id, 'RUN_FINISHED', 'SUCCESS', 'engine', Date.now(), null);
    const archived = ids[ids.length - 1 - ARCHIVED_RUNS];
    if (archived) {
      dropMessages.run(archived);
      dropStates.run(archived);
    }
    const retained = ids[ids.length - 1 - RETAINED_RUNS];
    if (retained) dropLog.run(retained);
  });
  let i = 0;
  const rows = db.prepare(ROW_COUNT).pluck();
  const side = {
    name: 'loop of the same SQLite writes',
    async run(n: number, runs: number) {
      for (let r = 0; r < runs; r++) {
        const id = crypto.randomUUID();
        ids.push(id);
        started(id, n, i);
        await new Promise<void>((resolve) => setImmediate(resolve)); // the acknowledgement's turn
        finished(id, n, i++);
      }
    },
    async close() {
      db.close();
    },
    async rowsPerRun(n: number): Promise<number> {
      const before = rows.get() as number;
      const id = crypto.randomUUID();
      started(id, n, -1);
      finished(id, n, -1);
      return (rows.get() as number) - before;
    },
  };
  return side;
}
const ROW_COUNT = 'SELECT (SELECT COUNT(*) FROM execution_log) + (SELECT COUNT(*) FROM checkpoint_messages) + (SELECT COUNT(*) FROM checkpoint_nodes)';

/** Rows the durable engine changes for one run of the chain (a check that the loop writes the same). */
async function engineRowsPerRun(n: number): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'yukta-run-per-task-'));
  const stores = openStores({ kind: 'sqlite', dataDir: dir });
  const side = await engineSide('probe', stores);
  const db = openDatabase(join(dir, 'yukta.db'));
  const count = () => db.prepare(ROW_COUNT).pluck().get() as number;
  const before = count();
  await side.run(n, 1);
  const rows = count() - before;
  db.close();
  await side.close();
  rmSync(dir, { recursive: true, force: true });
  return rows;
}

/** The SQLite backend: two data folders, deleted at close. */
export async function sqliteBackend(): Promise<Backend> {
  const dirs = [mkdtempSync(join(tmpdir(), 'yukta-run-per-task-')), mkdtempSync(join(tmpdir(), 'yukta-run-per-task-'))];
  const durable = await engineSide('ours, durable (SQLite log + checkpoints, NORMAL)', openStores({ kind: 'sqlite', dataDir: dirs[0]! }));
  const loop = loopSide(dirs[1]!);
  return {
    durable,
    loop,
    loopLabel: 'loop of the same SQLite writes',
    engineRowsPerRun,
    targetUs: 15,
    targetAt: 400,
    maxRatio: 1.3,
    close: async () => {
      await durable.close();
      await loop.close();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    },
  };
}
