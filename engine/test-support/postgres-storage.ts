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

/** Call once at the top of a test file: the file's database, and fresh schemas in it. */
export function postgresStorages(): () => Promise<PostgresStorage> {
  const database = testDatabase();
  return async () => {
    const db = await database;
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
