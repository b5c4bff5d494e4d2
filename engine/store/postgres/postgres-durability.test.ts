import type pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { postgresStorages, type PostgresStorage } from '../../test-support/postgres-storage';
import type { ExecutionLogEntry } from '../execution-log';
import { StoreWriteError } from '../store-errors';
import { PostgresCheckpointStore } from './postgres-checkpoint-store';
import type { OpenPostgresOptions, PostgresDatabase } from './postgres-database';
import { PostgresExecutionLog } from './postgres-execution-log';

const storages = postgresStorages();
const open: PostgresDatabase[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((d) => d.close().catch(() => undefined)));
});

const entry = (runId: string, extra: Partial<ExecutionLogEntry> = {}): ExecutionLogEntry => ({
  runId,
  type: 'RUN_STARTED',
  status: 'PENDING',
  actor: 'engine',
  at: 1,
  data: { payload: {} },
  ...extra,
});

async function host(storage?: PostgresStorage, options: Partial<OpenPostgresOptions> = {}) {
  const s = storage ?? (await storages());
  const db = await s.open(options);
  open.push(db);
  const count = async (table: string) => (await db.pool.query<{ n: number }>(`SELECT COUNT(*)::int AS n FROM ${table}`)).rows[0]!.n;
  return { storage: s, db, log: new PostgresExecutionLog(db.writer), checkpoints: await PostgresCheckpointStore.open(db.writer), count };
}

/** Makes the next batch statement fail as a dropped connection does: after it ran (`committed`) or before. */
function dropNextBatch(pool: pg.Pool, when: 'committed' | 'not sent'): void {
  const real = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  let armed = true;
  (pool as unknown as { query: (...args: unknown[]) => Promise<unknown> }).query = async (config, ...rest) => {
    const batch = armed && typeof config === 'object' && config !== null && String((config as { name?: unknown }).name).startsWith('yukta_batch');
    if (!batch) return real(config, ...rest);
    armed = false;
    if (when === 'committed') await real(config);
    throw Object.assign(new Error('Connection terminated unexpectedly'), {});
  };
}

describe('DUR-04 PostgreSQL writer: batches, failures and a connection lost mid-commit', () => {
  it('one writer batches the log and the checkpoints into few statements', async () => {
    const { db, log, checkpoints, count } = await host();
    for (let i = 0; i < 1000; i++) {
      log.append(entry(`r${i}`));
      checkpoints.writer(`r${i}`, 'a').append({ port: 'out', payload: i, metadata: {} });
    }
    await log.flush();
    expect(await count('execution_log')).toBe(1000);
    expect(await count('checkpoint_messages')).toBe(1000);
    expect(db.writer.commits).toBeLessThan(50);
  });

  it('rows nobody waits for join the next batch someone flushes: one statement for all of them', async () => {
    const { db, log, checkpoints, count } = await host();
    const before = db.writer.commits;
    for (let i = 0; i < 40; i++) {
      const node = checkpoints.writer('r', `n${i}`);
      node.append({ port: 'out', payload: i, metadata: {} });
      node.markDone('SUCCESS');
      log.append(entry('r', { type: 'NODE_FINISHED', status: 'SUCCESS', data: { nodeId: `n${i}` } }));
    }
    log.append(entry('next'));
    await log.flush();
    expect(db.writer.commits - before).toBe(1);
    expect([await count('execution_log'), await count('checkpoint_messages'), await count('checkpoint_nodes')]).toEqual([41, 40, 40]);
  });

  it('rows nobody waits for are written after the linger without any flush', async () => {
    const { log, count } = await host(undefined, { lingerMs: 0 });
    log.append(entry('unflushed'));
    await vi.waitFor(async () => expect(await count('execution_log')).toBe(1), { timeout: 30_000 });
  });

  it('a table locked beyond the statement timeout fails the flush with STORE_BUSY and stores nothing; the rows go in once it is free', async () => {
    const { db, log, checkpoints, count } = await host(undefined, { statementTimeoutMs: 200 });
    const other = await db.pool.connect();
    try {
      await other.query('BEGIN');
      await other.query('LOCK TABLE checkpoint_nodes IN ACCESS EXCLUSIVE MODE');
      log.append(entry('a'));
      checkpoints.writer('a', 'n').markDone('SUCCESS');
      const failure = await log.flush().catch((e: unknown) => e);
      expect(failure).toBeInstanceOf(StoreWriteError);
      expect((failure as StoreWriteError).code).toBe('STORE_BUSY');
      expect(checkpoints.stats().errors).toBe(1);
      await other.query('COMMIT');
    } finally {
      other.release();
    }
    expect(await count('execution_log')).toBe(0); // the log rows shared the failed statement
    // Reads still see the queued rows, then everything is written at the next flush.
    expect(await log.runEntries('a')).toHaveLength(1);
    await log.flush();
    expect(await count('execution_log')).toBe(1);
    expect((await checkpoints.read('a', 'n'))?.end).toBe('SUCCESS');
  });

  it('a batch whose commit was not heard (connection lost after it ran) is not written again', async () => {
    const { db, log, count } = await host();
    dropNextBatch(db.pool, 'committed');
    log.append(entry('once'));
    await expect(log.flush()).rejects.toMatchObject({ code: 'STORE_IO' });
    log.append(entry('after'));
    await log.flush();
    expect((await log.entries()).map((e) => e.runId)).toEqual(['once', 'after']);
    expect(await count('execution_log')).toBe(2);
  });

  it('a batch lost before it reached the server is written at the retry', async () => {
    const { db, log, count } = await host();
    dropNextBatch(db.pool, 'not sent');
    log.append(entry('lost-then-kept'));
    await expect(log.flush()).rejects.toBeInstanceOf(StoreWriteError);
    await log.flush();
    expect(await count('execution_log')).toBe(1);
  });

  it('stores what PostgreSQL text refuses: NUL in text columns (as U+FFFD), \\u0000 and lone surrogates in JSON, JSON null apart from no data', async () => {
    const { log, checkpoints } = await host();
    log.append(entry('r\u0000x', { status: 'Skip: bad\u0000id', data: { text: 'nul \u0000 and \ud800 alone' } }));
    log.append(entry('n', { type: 'NODE_FINISHED', data: null }));
    log.append(entry('n', { type: 'RUN_FINISHED', status: 'SUCCESS', data: undefined }));
    checkpoints.writer('n', 'a').append({ port: 'out', payload: { s: '\u0000' }, metadata: { k: 'v\u0000' } });
    await log.flush();
    const [first, second, third] = await log.entries();
    expect(first).toMatchObject({ runId: 'r\uFFFDx', status: 'Skip: bad\uFFFDid', data: { text: 'nul \u0000 and \ud800 alone' } });
    expect(second).toHaveProperty('data', null);
    expect(third).not.toHaveProperty('data');
    expect((await checkpoints.read('n', 'a'))?.messages).toEqual([{ port: 'out', payload: { s: '\u0000' }, metadata: { k: 'v\u0000' } }]);
  });

  it('a drop and new rows of the same run in one batch: rows before the drop go, rows after it stay', async () => {
    const { checkpoints } = await host();
    checkpoints.writer('r', 'old').append({ port: 'out', payload: 'stored before', metadata: {} });
    await checkpoints.flush();
    checkpoints.writer('r', 'a').append({ port: 'out', payload: 'dropped with the run', metadata: {} });
    checkpoints.drop('r');
    checkpoints.writer('r', 'b').append({ port: 'out', payload: 'written after the drop', metadata: {} });
    await checkpoints.flush();
    expect(await checkpoints.read('r', 'old')).toBeNull();
    expect(await checkpoints.read('r', 'a')).toBeNull();
    expect((await checkpoints.read('r', 'b'))?.messages.map((m) => m.payload)).toEqual(['written after the drop']);
  });

  it('one node recorded twice in one batch (two writers at once): the batch is built again, the later message and end marker win, nothing is refused', async () => {
    const { db, checkpoints } = await host();
    const [a, b] = [checkpoints.writer('r', 'n'), checkpoints.writer('r', 'n')];
    a.append({ port: 'out', payload: 'first', metadata: {} });
    b.append({ port: 'out', payload: 'second', metadata: {} });
    a.markDone('FAILURE');
    b.markDone('SUCCESS');
    const before = db.writer.commits;
    await checkpoints.flush();
    expect(db.writer.commits - before).toBe(1);
    expect(await checkpoints.read('r', 'n')).toEqual({ messages: [{ port: 'out', payload: 'second', metadata: {} }], end: 'SUCCESS', overCap: null });
    // Again in a later batch, over the stored rows: replaced as SQLite's INSERT OR REPLACE does.
    checkpoints.writer('r', 'n').append({ port: 'out', payload: 'third', metadata: {} });
    await checkpoints.flush();
    expect((await checkpoints.read('r', 'n'))?.messages.map((m) => m.payload)).toEqual(['third']);
    expect(checkpoints.stats().errors).toBe(0);
  });

  it('signal answers recorded after a restart come after those stored and those copied in the same batch', async () => {
    const first = await host();
    first.checkpoints.append('r', 'signal:w', { port: 'signal', payload: 1, metadata: {}, messageId: 'm1' });
    first.checkpoints.append('r', 'signal:w', { port: 'signal', payload: 2, metadata: {}, messageId: 'm2' });
    await first.db.close();
    const again = await host(first.storage);
    const copy = again.checkpoints.writer('copy', 'signal:w');
    for (const m of (await again.checkpoints.read('r', 'signal:w'))!.messages) copy.append(m);
    again.checkpoints.append('copy', 'signal:w', { port: 'signal', payload: 3, metadata: {}, messageId: 'm3' });
    again.checkpoints.append('r', 'signal:w', { port: 'signal', payload: 3, metadata: {}, messageId: 'm3' });
    await again.checkpoints.flush();
    expect((await again.checkpoints.read('r', 'signal:w'))?.messages.map((m) => m.messageId)).toEqual(['m1', 'm2', 'm3']);
    expect((await again.checkpoints.read('copy', 'signal:w'))?.messages.map((m) => m.messageId)).toEqual(['m1', 'm2', 'm3']);
  });

  it('two hosts on one database: each writer keeps its own order, both see every entry', async () => {
    const one = await host();
    const two = await host(one.storage);
    for (let i = 0; i < 200; i++) {
      one.log.append(entry(`one-${i}`));
      two.log.append(entry(`two-${i}`));
    }
    await Promise.all([one.log.flush(), two.log.flush()]);
    for (const side of [one, two]) {
      const ids = (await side.log.entries()).map((e) => e.runId);
      expect(ids).toHaveLength(400);
      expect(ids.filter((id) => id.startsWith('one-'))).toEqual(Array.from({ length: 200 }, (_, i) => `one-${i}`));
      expect(ids.filter((id) => id.startsWith('two-'))).toEqual(Array.from({ length: 200 }, (_, i) => `two-${i}`));
    }
    expect((await one.db.pool.query('SELECT COUNT(*)::int AS n FROM store_writers')).rows[0]).toEqual({ n: 2 });
  });
});
