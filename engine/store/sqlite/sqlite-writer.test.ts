import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ExecutionLogEntry } from '../execution-log';
import { openDatabase } from './open-database';
import { SqliteExecutionLog } from './sqlite-execution-log';
import { SqliteWriter } from './sqlite-writer';

const entry = (i: number): ExecutionLogEntry => ({ runId: `r${i}`, type: 'RUN_STARTED', status: 'PENDING', actor: 'engine', at: i, data: { i } });
const closers: Array<() => void> = [];
afterEach(() => {
  for (const close of closers.splice(0).reverse()) close();
});

async function open(checkpointInWorker?: boolean) {
  const file = join(await mkdtemp(join(tmpdir(), 'yukta-sqlite-writer-')), 'yukta.db');
  const db = openDatabase(file);
  const writer = new SqliteWriter(db, checkpointInWorker === undefined ? {} : { checkpointInWorker });
  const log = new SqliteExecutionLog(writer, { compactAfter: Number.POSITIVE_INFINITY });
  closers.push(() => db.close());
  closers.push(() => writer.close());
  /** One commit per entry. */
  const commit = async (count: number) => {
    for (let i = 0; i < count; i++) {
      log.append(entry(i));
      await log.flush();
    }
  };
  return { file, db, writer, commit };
}

describe('DUR-01 SQLite writer: WAL checkpoints on a worker thread', () => {
  it('copies the WAL into the database from a worker thread (the event loop never waits for a checkpoint); every row stays readable', async () => {
    const { file, db, writer, commit } = await open();
    await commit(40);
    await vi.waitFor(() => expect(writer.workerCheckpoints).toBeGreaterThan(0), { timeout: 10_000 });
    // The connection's own automatic checkpoint only stands by (a much longer WAL), while the worker is healthy.
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(10_000);
    writer.close();
    const other = new Database(file, { readonly: true });
    expect(other.prepare('SELECT COUNT(*) FROM execution_log').pluck().get()).toBe(40);
    other.close();
  });

  it('without the worker (checkpointInWorker: false) SQLite checkpoints on the connection as before', async () => {
    const { db, writer, commit } = await open(false);
    await commit(40);
    expect(writer.workerCheckpoints).toBe(0);
    expect(db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
  });
});
