// bench/log-append: N execution-log events (1,000,000) through our SQLite log and our JSONL log, each
// against its raw path at the same durability setting in the same process run:
//   - SQLite (synchronous NORMAL, and FULL = `yukta.execution-log.fsync`): ours (SqliteExecutionLog through
//     the one batching SqliteWriter) against raw better-sqlite3 inserts into the same table, in transactions
//     of the size ours committed (events / ours' commits).
//   - JSONL (no fsync, and group fsync per batch): ours (JsonlExecutionLog, one background writer) against a
//     raw `fs` append of the same lines in batches of the size ours wrote (events / ours' writes).
//   - PostgreSQL (synchronous_commit on and off; DUR-04): ours (PostgresExecutionLog through the one
//     PostgresWriter) against raw `pg` multi-row `INSERT … VALUES` statements of the size ours committed
//     (bench/log-append-postgres.ts), on YUKTA_TEST_PG_URL or a throwaway durable server.
// Ours is fed the way the engine feeds it: a producer appends `--chunk` events per event-loop turn, then
// `flush()` is awaited; the event-loop delay (perf_hooks monitorEventLoopDelay) is recorded meanwhile. The raw
// paths run flat out with nothing else to do. Cases alternate (ours first, then raw first) over `--rounds`;
// medians are printed. Retention trimming is off on our side (compactAfter = ∞): the raw paths do not trim.
// Targets: ours ≥ 80 % of raw events/s; lag p99 < 20 ms while ours writes.
// Run: npm run bench:log-append [-- --events 1000000 --rounds 3 --chunk 1000 --only sqlite|jsonl|postgres]
// (or LOG_APPEND_EVENTS=100000 for a quick run)
import { mkdtempSync, rmSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { JsonlExecutionLog } from '../engine/store/file/jsonl-execution-log';
import { NODE_LOG_FILE_SYSTEM, type LogFileSystem } from '../engine/store/file/log-file-system';
import { openDatabase } from '../engine/store/sqlite/open-database';
import { SqliteExecutionLog } from '../engine/store/sqlite/sqlite-execution-log';
import { SqliteWriter } from '../engine/store/sqlite/sqlite-writer';
import { argNumber } from './lib';
import { Entries, produce, type LogAppendPair as Pair, type Result } from './log-entries';
import { postgresPairs } from './log-append-postgres';
import { benchServer, type BenchServer } from './postgres-server';

const N = Number(process.env.LOG_APPEND_EVENTS) || argNumber('events', 1_000_000);
/** Started on first use (only the PostgreSQL cases need it), stopped at the end. */
let server: Promise<BenchServer> | null = null;
const postgresServer = (): Promise<BenchServer> => (server ??= benchServer());
const ROUNDS = argNumber('rounds', 3);
const CHUNK = argNumber('chunk', 1000);
const onlyAt = process.argv.indexOf('--only');
const ONLY = onlyAt >= 0 ? process.argv[onlyAt + 1] : undefined;
function tempDir(): string {
  // On the disk (not a tmpfs: /tmp is on the root disk here), so fsync costs what it costs.
  return mkdtempSync(join(tmpdir(), 'yukta-log-append-'));
}

async function oursSqlite(n: number, full: boolean): Promise<Result> {
  const dir = tempDir();
  const db = openDatabase(join(dir, 'yukta.db'));
  if (full) db.pragma('synchronous = FULL');
  const writer = new SqliteWriter(db);
  const log = new SqliteExecutionLog(writer, { compactAfter: Number.POSITIVE_INFINITY });
  try {
    const { seconds, ...lag } = await produce(log, n, CHUNK);
    check(db, n);
    return { seconds, batch: n / writer.commits, lag };
  } finally {
    await log.close();
    writer.close();
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function rawSqlite(n: number, full: boolean, batch: number): Promise<Result> {
  const dir = tempDir();
  const db = openDatabase(join(dir, 'yukta.db'));
  if (full) db.pragma('synchronous = FULL');
  const insert = db.prepare('INSERT INTO execution_log (run_id, type, status, actor, at, data) VALUES (?, ?, ?, ?, ?, ?)');
  const entries = new Entries();
  const write = db.transaction((count: number) => {
    for (let j = 0; j < count; j++) {
      const e = entries.next();
      insert.run(e.runId, e.type, e.status, e.actor, e.at, e.data === undefined ? null : JSON.stringify(e.data));
    }
  });
  const size = Math.max(1, Math.round(batch));
  try {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i += size) write.immediate(Math.min(size, n - i));
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    check(db, n);
    return { seconds, batch: size };
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

function check(db: ReturnType<typeof openDatabase>, n: number): void {
  const { c } = db.prepare('SELECT COUNT(*) AS c FROM execution_log').get() as { c: number };
  if (c !== n) throw new Error(`lost rows: ${c}/${n}`);
}

/** The real file system, counting the writes of the JSONL writer (its batches). */
function countingFs(counter: { writes: number }): LogFileSystem {
  return {
    ...NODE_LOG_FILE_SYSTEM,
    async openAppend(path) {
      const file = await NODE_LOG_FILE_SYSTEM.openAppend(path);
      return {
        append: (data) => {
          counter.writes++;
          return file.append(data);
        },
        sync: () => file.sync(),
        truncate: (length) => file.truncate(length),
        close: () => file.close(),
      };
    },
  };
}

async function oursJsonl(n: number, fsync: boolean): Promise<Result> {
  const dir = tempDir();
  const counter = { writes: 0 };
  const log = await JsonlExecutionLog.open({ dir, fsync, compactAfter: Number.POSITIVE_INFINITY, fs: countingFs(counter) });
  try {
    const { seconds, ...lag } = await produce(log, n, CHUNK);
    return { seconds, batch: n / counter.writes, lag };
  } finally {
    await log.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

async function rawJsonl(n: number, fsync: boolean, batch: number): Promise<Result> {
  const dir = tempDir();
  const handle = await open(join(dir, 'executions.jsonl'), 'a', 0o600);
  const entries = new Entries();
  const size = Math.max(1, Math.round(batch));
  try {
    const t0 = process.hrtime.bigint();
    for (let i = 0; i < n; i += size) {
      const lines: string[] = [];
      const count = Math.min(size, n - i);
      for (let j = 0; j < count; j++) lines.push(`${JSON.stringify(entries.next())}\n`);
      await handle.write(Buffer.from(lines.join(''), 'utf8'));
      if (fsync) await handle.datasync();
    }
    const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
    return { seconds, batch: size };
  } finally {
    await handle.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

const pairs: Pair[] = (
  [
    { label: 'SQLite, synchronous=NORMAL', ours: (n) => oursSqlite(n, false), raw: (n, b) => rawSqlite(n, false, b) },
    { label: 'SQLite, synchronous=FULL (fsync)', ours: (n) => oursSqlite(n, true), raw: (n, b) => rawSqlite(n, true, b) },
    { label: 'JSONL, no fsync', ours: (n) => oursJsonl(n, false), raw: (n, b) => rawJsonl(n, false, b) },
    { label: 'JSONL, group fsync per batch', ours: (n) => oursJsonl(n, true), raw: (n, b) => rawJsonl(n, true, b) },
    ...postgresPairs(postgresServer, CHUNK),
  ] satisfies Pair[]
).filter((p) => ONLY === undefined || p.label.toLowerCase().startsWith(ONLY));

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fmt = (x: number): string => Math.round(x).toLocaleString('en-US');
const load = (): string =>
  loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');

console.log(
  `log-append: ${N.toLocaleString('en-US')} events, ${ROUNDS} rounds, ${CHUNK} appends per turn (Node ${process.version}); load average at start ${load()}`,
);
// Warm-up (JIT, file system caches): a small run of every case, not recorded.
for (const p of pairs) {
  const o = await p.ours(Math.min(N, 20_000));
  await p.raw(Math.min(N, 20_000), o.batch);
}
/** The lag of the idle loop for 1 s: what the machine itself adds (other processes on a shared box). */
async function idleLag(): Promise<NonNullable<Result['lag']>> {
  const h = monitorEventLoopDelay({ resolution: 1 });
  h.enable();
  await new Promise((resolve) => setTimeout(resolve, 1000));
  h.disable();
  return { p50: h.percentile(50) / 1e6, p99: h.percentile(99) / 1e6, max: h.max / 1e6 };
}

const results = pairs.map(() => ({ ours: [] as Result[], raw: [] as Result[] }));
const idle: Array<NonNullable<Result['lag']>> = [];
for (let round = 0; round < ROUNDS; round++) {
  idle.push(await idleLag());
  console.log(`  round ${round + 1} idle loop, 1 s: lag p99 ${idle.at(-1)!.p99.toFixed(2)} ms`);
  for (const [i, p] of pairs.entries()) {
    const r = results[i]!;
    // Raw uses the batch size ours committed; on odd rounds raw goes first with the previous round's size.
    if (round % 2 === 1 && r.ours.length > 0) {
      r.raw.push(await p.raw(N, r.ours.at(-1)!.batch));
      r.ours.push(await p.ours(N));
    } else {
      const o = await p.ours(N);
      r.ours.push(o);
      r.raw.push(await p.raw(N, o.batch));
    }
    const o = r.ours.at(-1)!;
    const w = r.raw.at(-1)!;
    console.log(
      `  round ${round + 1} ${p.label}: ours ${fmt(N / o.seconds)}/s, raw ${fmt(N / w.seconds)}/s, ratio ${((w.seconds / o.seconds) * 100).toFixed(0)} %, batch ${fmt(o.batch)}, lag p99 ${o.lag!.p99.toFixed(2)} ms (load ${load()})`,
    );
  }
}

console.log(`\n### log-append: ${N.toLocaleString('en-US')} events, median of ${ROUNDS} rounds (Node ${process.version})\n`);
console.log(
  '| case | ours events/s | raw events/s | ratio ours/raw, per round: median (min–max) | events per batch (ours) | lag p50 ms | lag p99 ms | lag max ms |',
);
console.log('| - | - | - | - | - | - | - | - |');
let worstRatio = Number.POSITIVE_INFINITY;
let worstLag = 0;
for (const [i, p] of pairs.entries()) {
  const { ours, raw } = results[i]!;
  const o = median(ours.map((r) => r.seconds));
  const w = median(raw.map((r) => r.seconds));
  const p99 = median(ours.map((r) => r.lag!.p99));
  // The ratio of each round (ours and raw ran side by side in it), then their median: not a median over a median.
  const ratios = ours.map((r, round) => raw[round]!.seconds / r.seconds);
  const ratio = median(ratios);
  const ratioText = `${(ratio * 100).toFixed(0)} % (${(Math.min(...ratios) * 100).toFixed(0)}–${(Math.max(...ratios) * 100).toFixed(0)} %)`;
  worstRatio = Math.min(worstRatio, ratio);
  worstLag = Math.max(worstLag, p99);
  console.log(
    `| ${p.label} | ${fmt(N / o)} | ${fmt(N / w)} | ${ratioText} | ${fmt(median(ours.map((r) => r.batch)))} | ${median(ours.map((r) => r.lag!.p50)).toFixed(2)} | ${p99.toFixed(2)} | ${median(ours.map((r) => r.lag!.max)).toFixed(2)} |`,
  );
}
console.log(
  `| idle loop, 1 s (reference) | | | | | ${median(idle.map((l) => l.p50)).toFixed(2)} | ${median(idle.map((l) => l.p99)).toFixed(2)} | ${median(idle.map((l) => l.max)).toFixed(2)} |`,
);
console.log(
  `\ntarget ≥ 80 % of raw: ${worstRatio >= 0.8 ? 'met' : 'missed'} (worst ${(worstRatio * 100).toFixed(0)} %); target lag p99 < 20 ms: ${worstLag < 20 ? 'met' : 'missed'} (worst ${worstLag.toFixed(2)} ms); load average at end ${load()}`,
);
// Assigned inside postgresServer: read through a widened type (the compiler cannot see that assignment here).
const started = server as Promise<BenchServer> | null;
if (started) await (await started).stop();
