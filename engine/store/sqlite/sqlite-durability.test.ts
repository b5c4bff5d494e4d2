import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import type { ExecutionLogEntry } from '../execution-log';
import { StoreWriteError } from '../store-errors';
import { openDatabase } from './open-database';
import { SqliteCheckpointStore } from './sqlite-checkpoint-store';
import { SqliteExecutionLog } from './sqlite-execution-log';
import { SqliteWriter } from './sqlite-writer';

const dbFile = async () => join(await mkdtemp(join(tmpdir(), 'yukta-sqlite-dur-')), 'yukta.db');
const entry = (runId: string, payload: unknown = {}): ExecutionLogEntry => ({
  runId,
  type: 'RUN_STARTED',
  status: 'PENDING',
  actor: 'engine',
  at: 1,
  data: { payload },
});
const closers: Array<() => void> = [];
afterEach(() => {
  for (const close of closers.splice(0).reverse()) close();
});

function stores(file: string) {
  const db = openDatabase(file);
  const writer = new SqliteWriter(db);
  const log = new SqliteExecutionLog(writer);
  const checkpoints = new SqliteCheckpointStore(writer);
  closers.push(() => db.close());
  const count = (table: string) => (db.prepare(`SELECT COUNT(*) AS n FROM ${table}`).get() as { n: number }).n;
  return { db, writer, log, checkpoints, count };
}

describe('DUR-01 SQLite log: a full disk and a locked database', () => {
  it('a full disk (SQLITE_FULL) fails the flush with a typed error and no partial rows, then writes everything when space returns', async () => {
    const { db, log, checkpoints, count } = stores(await dbFile());
    log.append(entry('before'));
    await log.flush();
    const pages = db.pragma('page_count', { simple: true }) as number;
    db.pragma(`max_page_count = ${pages + 2}`);
    const big = 'x'.repeat(64 * 1024);
    for (let i = 0; i < 20; i++) log.append(entry(`r${i}`, big));
    const node = checkpoints.writer('r0', 'a');
    node.append({ port: 'out', payload: big, metadata: {} });
    node.markDone('SUCCESS');
    const failure = await log.flush().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(StoreWriteError);
    expect((failure as StoreWriteError).code).toBe('STORE_FULL');
    expect(count('execution_log')).toBe(1); // the failed batch left nothing behind
    expect(checkpoints.stats().errors).toBeGreaterThan(0);
    // Reads still see the queued entries.
    expect(await log.runEntries('r3')).toHaveLength(1);
    db.pragma('max_page_count = 1073741823');
    await log.flush();
    expect(count('execution_log')).toBe(21);
    expect((await checkpoints.read('r0', 'a'))?.end).toBe('SUCCESS');
  });

  it('a database locked beyond its busy timeout fails the flush with STORE_BUSY and no partial rows; the rows go in once it is free', async () => {
    const file = await dbFile();
    const { db, log, count } = stores(file);
    db.pragma('busy_timeout = 20');
    const other = new Database(file);
    closers.push(() => other.close());
    other.prepare('BEGIN IMMEDIATE').run();
    log.append(entry('a'));
    log.append(entry('b'));
    const failure = await log.flush().catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(StoreWriteError);
    expect((failure as StoreWriteError).code).toBe('STORE_BUSY');
    expect(count('execution_log')).toBe(0);
    other.prepare('COMMIT').run();
    await log.flush();
    expect(count('execution_log')).toBe(2);
  });

  it('one writer batches the log and the checkpoints into few transactions', async () => {
    const { writer, log, checkpoints, count } = stores(await dbFile());
    for (let i = 0; i < 1000; i++) {
      log.append(entry(`r${i}`));
      checkpoints.writer(`r${i}`, 'a').append({ port: 'out', payload: i, metadata: {} });
    }
    await log.flush();
    expect(count('execution_log')).toBe(1000);
    expect(count('checkpoint_messages')).toBe(1000);
    expect(writer.commits).toBeLessThan(50);
  });
});
