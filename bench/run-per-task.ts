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
// (their order rotates); the ratios to the loop are taken per round, then their median with its spread, and
// every case prints its median with min–max. Targets on SQLite: durable ≤ 1.3× the loop, < 15 µs per task at 400.
// With `--store postgres` (DUR-04) the durable side is the PostgreSQL log and checkpoints (through the one
// writer) and the loop does the same `pg` writes (bench/run-per-task-postgres.ts), on YUKTA_TEST_PG_URL or a
// throwaway durable server. Targets there: ours ≤ 1.3× the loop and < 200 µs per task.
// Run: npm run bench:run-per-task [-- --rounds 7 --tasks 24000 --store sqlite|postgres --synchronous-commit on|off]
// (tasks per case per round; gc() between cases; synchronous_commit for both PostgreSQL sides, on by default)
import { loadavg } from 'node:os';
import { argNumber } from './lib';
import { CHAINS, engineSide, type Side } from './run-per-task-engine';
import { postgresBackend } from './run-per-task-postgres';
import { sqliteBackend } from './run-per-task-sqlite';

const ROUNDS = argNumber('rounds', 7);
const TASKS_PER_CASE = argNumber('tasks', 24000);
const storeAt = process.argv.indexOf('--store');
const STORE = storeAt >= 0 ? process.argv[storeAt + 1] : 'sqlite';
if (STORE !== 'sqlite' && STORE !== 'postgres') throw new Error(`--store must be sqlite or postgres, not "${STORE}"`);
const commitAt = process.argv.indexOf('--synchronous-commit');
const COMMIT = commitAt >= 0 ? process.argv[commitAt + 1] : 'on';
if (COMMIT !== 'on' && COMMIT !== 'off') throw new Error(`--synchronous-commit must be on or off, not "${COMMIT}"`);

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const load = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

const backend = STORE === 'postgres' ? await postgresBackend(COMMIT) : await sqliteBackend();
const { durable, loop } = backend;
const memory = await engineSide('ours, memory stores', null);
const sides: Side[] = [durable, loop, memory];

console.log(
  `run-per-task (${STORE}): chains of ${CHAINS.join(' and ')} TRANSFORM tasks, ${TASKS_PER_CASE} tasks per case per round, ${ROUNDS} rounds (Node ${process.version}); load average at start ${load()}`,
);
for (const n of CHAINS) {
  const engineRows = await backend.engineRowsPerRun(n);
  const loopRows = await loop.rowsPerRun(n);
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
const of = (m: Map<string, number[]>, side: Side, n: number): number[] => m.get(`${side.name}|${n}`)!;
/** Durable / loop of each round, of one measure (wall or CPU). */
const ratiosOf = (m: Map<string, number[]>, n: number): number[] => of(m, durable, n).map((d, r) => d / of(m, loop, n)[r]!);
/** What the stores add to a run against what the same writes cost alone (the loop runs no engine), per round. */
const addedOf = (m: Map<string, number[]>, n: number): number[] => of(m, durable, n).map((d, r) => (d - of(m, memory, n)[r]!) / of(m, loop, n)[r]!);
for (const [title, m] of [
  ['wall time', times],
  ['CPU time of this process (all its threads)', cpu],
] as const) {
  console.log(`\n### run-per-task (${STORE}), ${title}: µs per task, median (min–max) of ${ROUNDS} rounds (Node ${process.version})\n`);
  console.log(`| chain | ours, durable | ${backend.loopLabel} | ours, memory stores | durable / loop, per round | (durable − memory) / loop, per round |`);
  console.log('| - | - | - | - | - | - |');
  for (const n of CHAINS) {
    console.log(
      `| ${n} tasks | ${spread(of(m, durable, n))} | ${spread(of(m, loop, n))} | ${spread(of(m, memory, n))} | ${spread(ratiosOf(m, n))}× | ${spread(addedOf(m, n))}× |`,
    );
  }
}
const targetChains = backend.targetAt === undefined ? CHAINS : [backend.targetAt];
const worst = Math.max(...targetChains.map((n) => median(of(times, durable, n))));
const worstRatio = Math.max(...CHAINS.map((n) => median(ratiosOf(times, n))));
const worstAdded = Math.max(...CHAINS.map((n) => median(addedOf(times, n))));
const verdict = (x: number, max: number) => `${x <= max ? 'met' : 'missed'} (worst median ${x.toFixed(2)}×)`;
const ratioTarget =
  backend.maxRatio === undefined
    ? ''
    : `; target ≤ ${backend.maxRatio}× the loop: durable ${verdict(worstRatio, backend.maxRatio)}, durable − memory ${verdict(worstAdded, backend.maxRatio)}`;
const at = backend.targetAt === undefined ? '' : ` at ${backend.targetAt}`;
console.log(
  `\ntarget < ${backend.targetUs} µs per task${at} (durable): ${worst < backend.targetUs ? 'met' : 'missed'} (${worst.toFixed(2)} µs)${ratioTarget}; load average at end ${load()}`,
);

await memory.close();
await backend.close();
