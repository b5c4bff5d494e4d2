import { postgresStorages } from '../test-support/postgres-storage';
import { keyValueStoreContract } from './key-value-store.contract';
import { MemoryKeyValueStore } from './key-value-store';
import { PostgresKeyValueStore } from './postgres/postgres-key-value-store';

keyValueStoreContract('memory', async () => ({ durable: false, open: async () => new MemoryKeyValueStore() }));

const postgres = postgresStorages();
keyValueStoreContract('postgres', async () => {
  const storage = await postgres();
  return {
    durable: true,
    open: async () => {
      const db = await storage.open();
      return Object.assign(new PostgresKeyValueStore(db.pool), { close: () => db.close() });
    },
  };
});
