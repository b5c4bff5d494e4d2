/**
 * PostgreSQL storage for the store contract suites (DUR-04): each `storage()` is a fresh schema of the test
 * file's database (`testDatabase`), and each `open()` a new pool, migration and writer on it — a host
 * starting again on the same database.
 */
import { openPostgresDatabase, type OpenPostgresOptions, type PostgresDatabase } from '../store/postgres/postgres-database';
import { testDatabase } from './postgres-test-database';

export interface PostgresStorage {
  readonly url: string;
  readonly schema: string;
  /** A new connection to the storage (closed with what it serves). */
  open(options?: Partial<OpenPostgresOptions>): Promise<PostgresDatabase>;
}

/** Fresh schemas of the test file's database, one per call of the function returned. */
export function postgresStorages(): () => Promise<PostgresStorage> {
  return async () => {
    const db = await testDatabase();
    const schema = await db.freshSchema();
    return { url: db.url, schema, open: (options = {}) => openPostgresDatabase({ url: db.url, schema, poolSize: 4, ...options }) };
  };
}

/** Closes the store, then its database connection (the contract suites close what they open). */
export function closingDatabase<T extends { close(): Promise<void> }>(store: T, database: PostgresDatabase): T {
  const close = store.close.bind(store);
  store.close = async () => {
    try {
      await close();
    } finally {
      await database.close();
    }
  };
  return store;
}
