// bench/run-per-task: µs per task of runs of a chain of N TRANSFORM tasks (N = 40, 400) behind a manual
// trigger, one run after another (start, wait for its end), in the same process run:
//   - ours, durable: an Engine with durability on: the SQLite execution log and SQLite checkpoints at
//     synchronous=NORMAL, through `openStores` on a temporary data folder (as the host opens them);
//   - the loop: the same SQLite writes done directly with better-sqlite3 on the same schema: per run, one
//     transaction with RUN_STARTED (a start is acknowledged once it is stored), then one with the rows the
//     engine writes for the run's nodes (each node: its output message, its end marker and NODE_FINISHED; the
//     last task's output goes nowhere and is not recorded) and RUN_FINISHED (the bench
//     checks that both sides store the same number of rows per run); the checkpoints of the run that left the restart archive (100 runs
//     back) and the log rows of the run that left retention (1000 runs back) are deleted, as the engine does;
//   - ours, memory: the same Engine with memory stores (the engine's own cost, as in bench:anchors).
// "Per task" divides a run's time by N (the trigger is not counted as a task), in wall time and in CPU time of
// this process (the box is shared: wall time also counts other processes). Cases alternate over `--rounds`
// (their order rotates); the durable/loop ratio is taken per round, then its median with its spread, and
// every case prints its median with min–max. Targets: durable ≤ 1.3× the loop, < 15 µs per task at 400.
// Run: npm run bench:run-per-task [-- --rounds 7 --tasks 24000]  (tasks per case per round; gc() between cases)
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine, builtinPlugins, openStores, type DurableStores } from '../engine/index';
import { openDatabase } from '../engine/store/sqlite/open-database';
import { argNumber } from './lib';

const ROUNDS = argNumber('rounds', 7);
const TASKS_PER_CASE = argNumber('tasks', 24000);
const CHAINS = [40, 400];
const ARCHIVED_RUNS = 100;
const RETAINED_RUNS = 1000;

function chain(n: number): { workflowId: string; nodes: unknown[]; edges: unknown[] } {
  const nodes: Array<{ nodeId: string; type: string; config?: unknown }> = [{ nodeId: 'trigger', type: 'MANUAL_TRIGGER' }];
  for (let k = 1; k <= n; k++) nodes.push({ nodeId: `t${k}`, type: 'TRANSFORM', config: { set: { step: k }, mode: 'merge' } });
  const edges = nodes.slice(1).map((node, i) => ({ source: nodes[i]!.nodeId, target: node.nodeId }));
  return { workflowId: `chain-${n}`, nodes, edges };
}

interface Side {
  name: string;
  /** Runs `runs` runs of the chain of n tasks; resolves once everything they wrote is stored. */
  run(n: number, runs: number): Promise<void>;
  close(): Promise<void>;
}

async function engineSide(name: string, stores: DurableStores | null): Promise<Side> {
  const engine = new Engine({
    plugins: builtinPlugins(),
    freezeMessages: false,
    ...(stores ? { definitions: stores.definitions, durability: { log: stores.log! }, control: { checkpoints: stores.checkpoints } } : {}),
  });
  await engine.ready;
  for (const n of CHAINS) await engine.saveWorkflow('bench', chain(n));
  let i = 0;
  return {
    name,
    async run(n, runs) {
      for (let r = 0; r < runs; r++) {
        const { executionId } = await engine.startRun({ session: 'bench', workflowId: `chain-${n}`, payload: { i: i++ } });
        const status = await engine.waitForRun(executionId);
        if (status !== 'SUCCESS') throw new Error(`run ended ${status}`);
      }
      await stores?.log?.flush();
      await stores?.checkpoints.flush();
    },
    async close() {
      await engine.shutdown();
      await stores?.close();
    },
  };
}

/** The same rows as the durable engine writes, straight through better-sqlite3, with the minimum of transactions. */
function loopSide(dir: string): Side & { rowsPerRun(n: number): number } {
  const db = openDatabase(join(dir, 'yukta.db'));
  const log = db.prepare('INSERT INTO execution_log (run_id, type, status, actor, at, data) VALUES (?, ?, ?, ?, ?, ?)');
  const state = db.prepare('INSERT OR REPLACE INTO checkpoint_nodes (execution_id, node_id, end_status) VALUES (?, ?, ?)');
  const message = db.prepare('INSERT OR REPLACE INTO checkpoint_messages (execution_id, node_id, seq, port, payload, metadata, message_id) VALUES (?, ?, ?, ?, ?, ?, ?)');
  const dropMessages = db.prepare('DELETE FROM checkpoint_messages WHERE execution_id = ?');
  const dropStates = db.prepare('DELETE FROM checkpoint_nodes WHERE execution_id = ?');
  const dropLog = db.prepare('DELETE FROM execution_log WHERE run_id = ?');
  const ids: string[] = [];
  const started = db.transaction((id: string, n: number, i: number) => {
    const record = { session: 'bench', workflowId: `chain-${n}`, version: 'a3f9c2d17b5e4c08a3f9c2d17b5e4c08a3f9c2d17b5e4c08a3f9c2d17b5e4c08', payload: { i }, scope: SCOPES.get(n)!, inputs: [] };
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
    rowsPerRun(n: number): number {
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
const SCOPES = new Map(CHAINS.map((n) => [n, ['trigger', ...Array.from({ length: n }, (_, k) => `t${k + 1}`)]]));

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

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const load = (): string => loadavg().map((x) => x.toFixed(2)).join(' ');

const dirs = [mkdtempSync(join(tmpdir(), 'yukta-run-per-task-')), mkdtempSync(join(tmpdir(), 'yukta-run-per-task-'))];
const durable = await engineSide('ours, durable (SQLite log + checkpoints, NORMAL)', openStores({ kind: 'sqlite', dataDir: dirs[0]! }));
const loop = loopSide(dirs[1]!);
const memory = await engineSide('ours, memory stores', null);
const sides: Side[] = [durable, loop, memory];

console.log(`run-per-task: chains of ${CHAINS.join(' and ')} TRANSFORM tasks, ${TASKS_PER_CASE} tasks per case per round, ${ROUNDS} rounds (Node ${process.version}); load average at start ${load()}`);
for (const n of CHAINS) {
  const engineRows = await engineRowsPerRun(n);
  const loopRows = loop.rowsPerRun(n);
  if (engineRows !== loopRows) throw new Error(`chain of ${n}: the engine stores ${engineRows} rows per run, the loop ${loopRows}`);
  console.log(`  chain of ${n}: rows stored per run: ${engineRows} by the durable engine, ${loopRows} by the loop`);
}
// Warm-up: a few runs of every case.
for (const n of CHAINS) for (const side of sides) await side.run(n, Math.max(2, Math.round(400 / n)));

const times = new Map<string, number[]>();
/** CPU time of this process per task (user + system, all its threads): what other processes on a shared box do not inflate. */
const cpu = new Map<string, number[]>();
for (let round = 0; round < ROUNDS; round++) {
  for (const n of CHAINS) {
    const runs = Math.max(1, Math.round(TASKS_PER_CASE / n));
    // Rotate the order of the cases every round.
    for (let s = 0; s < sides.length; s++) {
      const side = sides[(s + round) % sides.length]!;
      (globalThis as { gc?: () => void }).gc?.();
      const t0 = process.hrtime.bigint();
      const c0 = process.cpuUsage();
      await side.run(n, runs);
      const us = Number(process.hrtime.bigint() - t0) / 1e3 / (runs * n);
      const c = process.cpuUsage(c0);
      const key = `${side.name}|${n}`;
      times.set(key, [...(times.get(key) ?? []), us]);
      cpu.set(key, [...(cpu.get(key) ?? []), (c.user + c.system) / (runs * n)]);
    }
  }
  console.log(`  round ${round + 1}: ${[...times].map(([k, v]) => `${k.replace('|', ' ×')} ${v.at(-1)!.toFixed(2)}`).join('; ')} µs/task (load ${load()})`);
}

const spread = (xs: number[]): string => `${median(xs).toFixed(2)} (${Math.min(...xs).toFixed(2)}–${Math.max(...xs).toFixed(2)})`;
/** The durable/loop ratio of each round, of one measure (wall or CPU). */
const ratiosOf = (m: Map<string, number[]>, n: number): number[] => m.get(`${durable.name}|${n}`)!.map((d, r) => d / m.get(`${loop.name}|${n}`)![r]!);
for (const [title, m] of [['wall time', times], ['CPU time of this process (all its threads)', cpu]] as const) {
  console.log(`\n### run-per-task, ${title}: µs per task, median (min–max) of ${ROUNDS} rounds (Node ${process.version})\n`);
  console.log('| chain | ours, durable | loop of the same SQLite writes | ours, memory stores | durable / loop, per round |');
  console.log('| - | - | - | - | - |');
  for (const n of CHAINS) {
    const of = (side: Side) => m.get(`${side.name}|${n}`)!;
    console.log(`| ${n} tasks | ${spread(of(durable))} | ${spread(of(loop))} | ${spread(of(memory))} | ${spread(ratiosOf(m, n))}× |`);
  }
}
const worstRatio = Math.max(...CHAINS.map((n) => median(ratiosOf(times, n))));
const at400 = median(times.get(`${durable.name}|400`)!);
console.log(`\ntargets: durable ≤ 1.3× the loop: ${worstRatio <= 1.3 ? 'met' : 'missed'} (worst median ${worstRatio.toFixed(2)}×); < 15 µs per task at 400: ${at400 < 15 ? 'met' : 'missed'} (${at400.toFixed(2)} µs); load average at end ${load()}`);

for (const side of sides) await side.close();
for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
