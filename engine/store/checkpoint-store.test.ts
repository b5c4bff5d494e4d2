import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { closingDatabase, postgresStorages } from '../test-support/postgres-storage';
import { checkpointStoreContract } from './checkpoint-store.contract';
import { FileCheckpointStore } from './file/file-checkpoint-store';
import { MemoryCheckpointStore } from './memory/memory-checkpoint-store';
import { PostgresCheckpointStore } from './postgres/postgres-checkpoint-store';
import { openDatabase } from './sqlite/open-database';
import { SqliteCheckpointStore } from './sqlite/sqlite-checkpoint-store';
import { SqliteWriter } from './sqlite/sqlite-writer';

const tempDir = () => mkdtemp(join(tmpdir(), 'yukta-cp-'));

checkpointStoreContract('memory', async () => ({ durable: false, open: async () => new MemoryCheckpointStore() }));

checkpointStoreContract('memory with a spill folder', async () => {
  const spillDir = await tempDir();
  return { durable: false, open: async () => new MemoryCheckpointStore({ maxMessagesPerNode: 2, spillDir }) };
});

checkpointStoreContract('file', async () => {
  const dir = await tempDir();
  return { durable: true, open: async () => new FileCheckpointStore({ dir }) };
});

checkpointStoreContract('sqlite', async () => {
  const file = join(await tempDir(), 'yukta.db');
  return {
    durable: true,
    open: async () => {
      const db = openDatabase(file);
      const writer = new SqliteWriter(db);
      const store = new SqliteCheckpointStore(writer);
      const close = store.close.bind(store);
      store.close = async () => {
        await close();
        writer.close();
        db.close();
      };
      return store;
    },
  };
});

describe('DUR-02 OBS-04 the memory store counts a spill that fails', () => {
  it('counts it in yukta.checkpoint.errors and leaves the node over its cap, so nothing partial is replayed', async () => {
    const spillDir = await tempDir();
    const store = new MemoryCheckpointStore({ maxMessagesPerNode: 1, spillDir });
    const msg = (n: number) => ({ port: 'out', payload: n, metadata: {} });
    store.writer('ok', 'a').append(msg(1));
    store.writer('ok', 'a').append(msg(2)); // spills fine
    expect(await store.read('ok', 'a')).toMatchObject({ messages: [msg(1), msg(2)], overCap: null });
    // The folder is replaced by a file: every later write to it fails (also for root, unlike permissions).
    await rm(spillDir, { recursive: true, force: true });
    await writeFile(spillDir, 'not a folder');
    const writer = store.writer('bad', 'a');
    writer.append(msg(1));
    writer.append(msg(2));
    expect(store.stats().errors).toBe(1);
    expect(writer.full).toBe(true);
    expect(await store.read('bad', 'a')).toMatchObject({ messages: [], overCap: expect.stringMatching(/^writing to the spill folder failed: /) });
    store.writer('ok', 'a').append(msg(3)); // the spilled node's next append fails too, and counts
    expect(store.stats().errors).toBe(2);
    expect((await store.read('ok', 'a'))?.overCap).toMatch(/^writing to the spill folder failed: /);
  });
});

const postgres = postgresStorages();

checkpointStoreContract('postgres', async () => {
  const storage = await postgres();
  return {
    durable: true,
    open: async () => {
      const db = await storage.open();
      return closingDatabase(await PostgresCheckpointStore.open(db.writer), db);
    },
  };
});
