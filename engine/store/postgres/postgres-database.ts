import type pg from 'pg';
import type { StoreWriteProblem } from '../store-errors';
import { migratePostgres } from './migrate';
import { POSTGRES_MIGRATIONS } from './migrations';
import { describeUrl, openPool, type PostgresConnectionOptions } from './postgres-connection';
import { PostgresWriter } from './postgres-writer';

/** One host's connection to its PostgreSQL database: the pool, migrated, and the one writer. */
export interface PostgresDatabase {
  readonly pool: pg.Pool;
  readonly writer: PostgresWriter;
  /** Writes what is queued, then closes every connection. */
  close(): Promise<void>;
}

export interface OpenPostgresOptions extends PostgresConnectionOptions {
  /** A background write failed (it is retried), or an idle connection broke. */
  onWriteError?: ((error: StoreWriteProblem) => void) | undefined;
  onConnectionError?: ((error: Error) => void) | undefined;
  /** The writer's linger for rows nobody waits for (`PostgresWriterOptions.lingerMs`). */
  lingerMs?: number | undefined;
}

/**
 * Connects, applies the migrations under the schema's advisory lock and opens the writer (DUR-04). Errors
 * name the database as `user@host:port/database`, never the URL (it may hold a password).
 */
export async function openPostgresDatabase(options: OpenPostgresOptions): Promise<PostgresDatabase> {
  let pool: pg.Pool;
  try {
    pool = openPool(options, options.onConnectionError);
  } catch (error) {
    // eslint-disable-next-line preserve-caught-error -- the cause may carry the URL (a secret): only its message, cleaned, goes on
    throw new Error(`yukta.postgres.url: ${(error as Error).message.replaceAll(options.url, describeUrl(options.url))}`);
  }
  try {
    await migratePostgres(pool, POSTGRES_MIGRATIONS, { schema: options.schema });
    const writer = await PostgresWriter.open(pool, { onError: options.onWriteError, lingerMs: options.lingerMs, fencing: options.fencing });
    let closing: Promise<void> | null = null;
    const close = (): Promise<void> =>
      (closing ??= (async () => {
        try {
          await writer.close();
        } finally {
          await pool.end();
        }
      })());
    return { pool, writer, close };
  } catch (error) {
    await pool.end().catch(() => undefined);
    const reason = error instanceof Error ? error.message : String(error);
    // eslint-disable-next-line preserve-caught-error -- the cause may carry the URL (a URL parse error keeps its input): only its message, cleaned, goes on
    throw new Error(`cannot open the PostgreSQL database ${describeUrl(options.url)}: ${reason.replaceAll(options.url, '(yukta.postgres.url)')}`);
  }
}
