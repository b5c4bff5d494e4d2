import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { CheckpointStore } from './checkpoint-store';
import type { ExecutionLog, ExecutionLogEntry } from './execution-log';
import { FileCheckpointStore } from './file/file-checkpoint-store';
import { JsonlAppender } from './file/jsonl-appender';
import { EXECUTION_LOG_FILE, JsonlExecutionLog } from './file/jsonl-execution-log';
import { NODE_LOG_FILE_SYSTEM, type AppendFile, type LogFileSystem } from './file/log-file-system';
import { MemoryExecutionLog } from './memory/memory-execution-log';
import { PostgresCheckpointStore } from './postgres/postgres-checkpoint-store';
import type { PostgresDatabase } from './postgres/postgres-database';
import { PostgresExecutionLog } from './postgres/postgres-execution-log';
import { QueuedSource } from './postgres/queued-source';
import type { BatchBudget, BatchPart } from './postgres/postgres-writer';
import { openDatabase } from './sqlite/open-database';
import { SqliteCheckpointStore } from './sqlite/sqlite-checkpoint-store';
import { SqliteExecutionLog } from './sqlite/sqlite-execution-log';
import { SqliteWriteQueue, SqliteWriter } from './sqlite/sqlite-writer';
import type { StoreWriteProblem } from './store-errors';
import { UnwritableEntryError } from './unwritable-entry-error';
import { postgresStorages } from '../test-support/postgres-storage';

/** `[[[…]]]`, `levels` deep, built without recursion: deeper than JSON.stringify can go at 100,000. */
function nested(levels: number): unknown {
  let value: unknown = [];
  for (let i = 1; i < levels; i++) value = [value];
  return value;
}

const cyclic = (): unknown => {
  const value: Record<string, unknown> = {};
  value.self = value;
  return value;
};

/** Values no store can serialize: too deep for the stack, a cycle, a BigInt. */
const POISONS: Array<[string, () => unknown]> = [
  ['100,000 levels deep', () => nested(100_000)],
  ['a cycle', cyclic],
  ['a BigInt', () => ({ n: 10n })],
];

const entry = (runId: string, data?: unknown): ExecutionLogEntry => ({
  runId,
  type: 'RUN_STARTED',
  status: 'RUNNING',
  actor: 'engine',
  at: 1,
  ...(data === undefined ? {} : { data }),
});

const closers: Array<() => unknown> = [];
afterEach(async () => {
  for (const close of closers.splice(0).reverse()) await close();
});

async function tempDir(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'yukta-poison-'));
}

async function sqlite(onError?: (e: StoreWriteProblem) => void) {
  const db = openDatabase(join(await tempDir(), 'yukta.db'));
  const writer = new SqliteWriter(db, { checkpointInWorker: false, ...(onError ? { onError } : {}) });
  closers.push(() => db.close());
  closers.push(() => writer.close());
  return writer;
}

const postgresStorage = postgresStorages();

async function postgres(onError?: (e: StoreWriteProblem) => void): Promise<PostgresDatabase> {
  const db = await (await postgresStorage()).open(onError ? { onWriteError: onError } : {});
  closers.push(() => db.close());
  return db;
}

/** Each poison on each database store, as `[title, open, poison]`. */
function onDatabases<T>(what: string, stores: Array<[string, () => Promise<T>]>): Array<[string, () => Promise<T>, () => unknown]> {
  return stores.flatMap(([store, open]) =>
    POISONS.map(([name, poison]): [string, () => Promise<T>, () => unknown] => [`${store} ${what}: ${name}`, open, poison]),
  );
}

const NO_TRIM = { compactAfter: Number.POSITIVE_INFINITY };
const DATABASE_LOGS = onDatabases<ExecutionLog>('log', [
  ['SQLite', async () => new SqliteExecutionLog(await sqlite(), NO_TRIM)],
  ['PostgreSQL', async () => new PostgresExecutionLog((await postgres()).writer, NO_TRIM)],
]);
const DATABASE_CHECKPOINTS = onDatabases<CheckpointStore>('checkpoints', [
  ['SQLite', async () => new SqliteCheckpointStore(await sqlite())],
  ['PostgreSQL', async () => PostgresCheckpointStore.open((await postgres()).writer)],
]);

describe('DUR-01 a poisoned execution log entry fails its own append and never blocks the next', () => {
  it.each(DATABASE_LOGS)('%s', async (_title, open, poison) => {
    const log = await open();
    expect(() => log.append(entry('bad', poison()))).toThrow(UnwritableEntryError);
    log.append(entry('good', { ok: true }));
    await log.flush(); // resolves: nothing poisoned was queued
    expect((await log.entries()).map((e) => e.runId)).toEqual(['good']);
  });

  it.each(POISONS)('JSONL log: %s', async (_name, poison) => {
    const dir = await tempDir();
    const log = JsonlExecutionLog.openSync({ dir, compactAfter: Number.POSITIVE_INFINITY });
    closers.push(() => log.close());
    expect(() => log.append(entry('bad', poison()))).toThrow(UnwritableEntryError);
    log.append(entry('good', { ok: true }));
    await log.flush();
    // Neither the file nor the in-memory copy holds the refused entry.
    expect((await log.entries()).map((e) => e.runId)).toEqual(['good']);
    expect(await readFile(join(dir, EXECUTION_LOG_FILE), 'utf8')).toBe(`${JSON.stringify(entry('good', { ok: true }))}\n`);
  });

  it('memory log: a value the copy cannot clone (a function deeper than the hand copy) is refused with the typed error', async () => {
    const log = new MemoryExecutionLog();
    let deep: Record<string, unknown> = { f: () => 1 };
    for (let i = 0; i < 40; i++) deep = { deep };
    expect(() => log.append(entry('bad', deep))).toThrow(UnwritableEntryError);
    log.append(entry('good'));
    expect((await log.entries()).map((e) => e.runId)).toEqual(['good']);
  });
});

describe('DUR-02 a poisoned checkpoint fails its own append and never blocks the next', () => {
  it.each(DATABASE_CHECKPOINTS)('%s', async (_title, open, poison) => {
    const store = await open();
    const writer = store.writer('run', 'node');
    expect(() => writer.append({ port: 'default', payload: poison(), metadata: {} })).toThrow(UnwritableEntryError);
    expect(() => store.append('run', 'signal:node', { port: 'signal', payload: poison(), metadata: {} })).toThrow(UnwritableEntryError);
    writer.append({ port: 'default', payload: { ok: 1 }, metadata: {} });
    writer.markDone('SUCCESS');
    await store.flush();
    expect(await store.read('run', 'node')).toEqual({ messages: [{ port: 'default', payload: { ok: 1 }, metadata: {} }], end: 'SUCCESS', overCap: null });
  });

  it.each(POISONS)('file checkpoints: %s', async (_name, poison) => {
    const store = new FileCheckpointStore({ dir: await tempDir() });
    closers.push(() => store.close());
    const writer = store.writer('run', 'node');
    expect(() => writer.append({ port: 'default', payload: poison(), metadata: {} })).toThrow(UnwritableEntryError);
    writer.append({ port: 'default', payload: { ok: 1 }, metadata: {} });
    writer.markDone('SUCCESS');
    await store.flush();
    expect(await store.read('run', 'node')).toEqual({ messages: [{ port: 'default', payload: { ok: 1 }, metadata: {} }], end: 'SUCCESS', overCap: null });
  });
});

describe('DUR-01/02 the SQLite writer drops a row it cannot write instead of retrying it forever', () => {
  it('a row whose write throws (not I/O) is dropped and reported; a flush covering it fails with the typed error; the rows behind it are committed', async () => {
    const problems: StoreWriteProblem[] = [];
    const writer = await sqlite((e) => problems.push(e));
    writer.db.exec('CREATE TABLE t (v TEXT NOT NULL)');
    const insert = writer.db.prepare('INSERT INTO t (v) VALUES (?)');
    const queue = new SqliteWriteQueue<string>(writer, (v) => {
      if (v === 'poison') throw new TypeError('cannot bind this value');
      insert.run(v);
    });
    queue.push('a');
    queue.push('poison');
    queue.push('b');
    const failure = await writer.flush().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(UnwritableEntryError);
    expect((failure as UnwritableEntryError).retryable).toBe(false);
    expect(problems).toHaveLength(1);
    queue.push('c');
    await writer.flush(); // the next flush succeeds: the poisoned row is gone, not queued again
    expect(writer.db.prepare('SELECT v FROM t ORDER BY rowid').pluck().all()).toEqual(['a', 'b', 'c']);
    expect(queue.pendingCount).toBe(0);
    expect(problems).toHaveLength(1);
  });

  it('a constraint SQLite refuses every time (not I/O) is dropped the same way', async () => {
    const writer = await sqlite();
    writer.db.exec('CREATE TABLE u (v TEXT PRIMARY KEY)');
    const insert = writer.db.prepare('INSERT INTO u (v) VALUES (?)');
    const queue = new SqliteWriteQueue<string>(writer, (v) => void insert.run(v));
    for (const v of ['x', 'x', 'y']) queue.push(v);
    await expect(writer.flush()).rejects.toBeInstanceOf(UnwritableEntryError);
    queue.push('z');
    await writer.flush();
    expect(writer.db.prepare('SELECT v FROM u ORDER BY rowid').pluck().all()).toEqual(['x', 'y', 'z']);
  });
});

describe('DUR-01 the JSONL appender drops a batch that fails for a reason other than I/O', () => {
  it('the flush covering it fails with the typed error; the lines behind it are written', async () => {
    const dir = await tempDir();
    const path = join(dir, EXECUTION_LOG_FILE);
    let poisoned = true;
    const fs: LogFileSystem = {
      ...NODE_LOG_FILE_SYSTEM,
      async openAppend(p) {
        const file = await NODE_LOG_FILE_SYSTEM.openAppend(p);
        const wrapped: AppendFile = {
          append: async (data) => {
            if (poisoned) {
              poisoned = false;
              throw new TypeError('the data argument must be a Buffer'); // a programming error, not the disk
            }
            return file.append(data);
          },
          sync: () => file.sync(),
          truncate: (length) => file.truncate(length),
          close: () => file.close(),
        };
        return wrapped;
      },
    };
    const problems: StoreWriteProblem[] = [];
    const appender = new JsonlAppender({ path, fs, fsync: false, size: 0, onError: (e) => problems.push(e) });
    closers.push(() => appender.close());
    appender.append('first\n');
    await expect(appender.flush()).rejects.toBeInstanceOf(UnwritableEntryError);
    appender.append('second\n');
    await appender.flush();
    expect(await readFile(path, 'utf8')).toBe('second\n');
    expect(problems.map((p) => p.name)).toEqual(['UnwritableEntryError']);
  });
});

/** Rows of a test table `t (v text NOT NULL CHECK (v <> 'poison'))` through the PostgreSQL writer. */
class TextRows extends QueuedSource<string> {
  push(v: string): void {
    this.queue.push(v);
  }

  collect(budget: BatchBudget): BatchPart[] {
    const rows: string[] = [];
    this.queue.take(budget.rows, (v) => {
      rows.push(v);
      budget.rows--;
    });
    return rows.length
      ? [
          {
            key: 't',
            values: [JSON.stringify(rows)],
            sql: (p) => `INSERT INTO t (v) SELECT r #>> '{}' FROM jsonb_array_elements(${p(1)}::jsonb) WITH ORDINALITY AS x(r, o) ORDER BY o`,
          },
        ]
      : [];
  }
}

describe('DUR-01/02 the PostgreSQL writer drops a row the server refuses for what it holds instead of retrying it forever', () => {
  it('a batch refused by a constraint (23514) is tried a row at a time; the row is dropped and reported, a flush covering it fails with the typed error; the rows around it are committed', async () => {
    const problems: StoreWriteProblem[] = [];
    const db = await postgres((e) => problems.push(e));
    await db.pool.query("CREATE TABLE t (v text NOT NULL CHECK (v <> 'poison'))");
    const rows = new TextRows(db.writer);
    for (const v of ['a', 'poison', 'b']) rows.push(v);
    const failure = await db.writer.flush().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(UnwritableEntryError);
    expect((failure as UnwritableEntryError).retryable).toBe(false);
    expect(problems.map((p) => p.name)).toEqual(['UnwritableEntryError']);
    rows.push('c');
    await db.writer.flush(); // the next flush succeeds: the poisoned row is gone, not queued again
    expect((await db.pool.query<{ v: string }>('SELECT v FROM t ORDER BY ctid')).rows.map((r) => r.v)).toEqual(['a', 'b', 'c']);
    expect(rows.pendingCount).toBe(0);
    expect(problems).toHaveLength(1);
  });

  it('a value too long for its column (22001), alone in its batch, is dropped the same way', async () => {
    const db = await postgres();
    await db.pool.query('CREATE TABLE t (v varchar(3) NOT NULL)');
    const rows = new TextRows(db.writer);
    rows.push('too long');
    await expect(db.writer.flush()).rejects.toBeInstanceOf(UnwritableEntryError);
    rows.push('ok');
    await db.writer.flush();
    expect((await db.pool.query<{ v: string }>('SELECT v FROM t')).rows.map((r) => r.v)).toEqual(['ok']);
  });
});
