import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ExecutionLogEntry } from './execution-log';
import { FileCheckpointStore } from './file/file-checkpoint-store';
import { JsonlAppender } from './file/jsonl-appender';
import { EXECUTION_LOG_FILE, JsonlExecutionLog } from './file/jsonl-execution-log';
import { NODE_LOG_FILE_SYSTEM, type AppendFile, type LogFileSystem } from './file/log-file-system';
import { MemoryExecutionLog } from './memory/memory-execution-log';
import { openDatabase } from './sqlite/open-database';
import { SqliteCheckpointStore } from './sqlite/sqlite-checkpoint-store';
import { SqliteExecutionLog } from './sqlite/sqlite-execution-log';
import { SqliteWriteQueue, SqliteWriter } from './sqlite/sqlite-writer';
import type { StoreWriteProblem } from './store-errors';
import { UnwritableEntryError } from './unwritable-entry-error';

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

const entry = (runId: string, data?: unknown): ExecutionLogEntry => ({ runId, type: 'RUN_STARTED', status: 'RUNNING', actor: 'engine', at: 1, ...(data === undefined ? {} : { data }) });

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

describe('DUR-01 a poisoned execution log entry fails its own append and never blocks the next', () => {
  it.each(POISONS)('SQLite log: %s', async (_name, poison) => {
    const log = new SqliteExecutionLog(await sqlite(), { compactAfter: Number.POSITIVE_INFINITY });
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
  it.each(POISONS)('SQLite checkpoints: %s', async (_name, poison) => {
    const store = new SqliteCheckpointStore(await sqlite());
    const writer = store.writer('run', 'node');
    expect(() => writer.append({ port: 'default', payload: poison(), metadata: {} })).toThrow(UnwritableEntryError);
    expect(() => store.append('run', 'signal:node', { port: 'signal', payload: poison(), metadata: {} })).toThrow(UnwritableEntryError);
    writer.append({ port: 'default', payload: { ok: 1 }, metadata: {} });
    writer.markDone('SUCCESS');
    await store.flush();
    expect(store.read('run', 'node')).toEqual({ messages: [{ port: 'default', payload: { ok: 1 }, metadata: {} }], end: 'SUCCESS', overCap: null });
  });

  it.each(POISONS)('file checkpoints: %s', async (_name, poison) => {
    const store = new FileCheckpointStore({ dir: await tempDir() });
    closers.push(() => store.close());
    const writer = store.writer('run', 'node');
    expect(() => writer.append({ port: 'default', payload: poison(), metadata: {} })).toThrow(UnwritableEntryError);
    writer.append({ port: 'default', payload: { ok: 1 }, metadata: {} });
    writer.markDone('SUCCESS');
    await store.flush();
    expect(store.read('run', 'node')).toEqual({ messages: [{ port: 'default', payload: { ok: 1 }, metadata: {} }], end: 'SUCCESS', overCap: null });
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
