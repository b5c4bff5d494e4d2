import { mkdtemp } from 'node:fs/promises';
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

const postgres = postgresStorages();

checkpointStoreContract('postgres', async () => {
  const storage = await postgres();
  return {
    durable: true,
    open: async () => {
      const db = await storage.open();
      return closingDatabase(new PostgresCheckpointStore(db.writer), db);
    },
  };
});
