import pg from 'pg';
import { StoreWriteError } from '../store-errors';
import type { WriterFencing } from './postgres-writer';

/** How the PostgreSQL stores reach their database (DUR-04): `yukta.postgres.*`, already resolved. */
export interface PostgresConnectionOptions {
  /** `yukta.postgres.url` (a secret: it may hold a password; never logged or put in an error). */
  url: string;
  /** `yukta.postgres.pool-size` (10): connections opened at most, the writer's included. */
  poolSize?: number | undefined;
  /** `yukta.postgres.statement-timeout` (30000 ms): a statement running longer is cancelled by the server. */
  statementTimeoutMs?: number | undefined;
  /** Tables live in this schema (created if missing) instead of the user's default (`public`). */
  schema?: string | undefined;
  /**
   * `synchronous_commit` for this connection: `on` (`yukta.execution-log.fsync=true`) waits for the WAL on
   * disk; `off` acknowledges before it (a server crash may lose the newest commits, never corrupt). Unset:
   * the server's own setting.
   */
  synchronousCommit?: 'on' | 'off' | undefined;
  /** The leader lease (SCL-02, `yukta.ha.mode=postgres`): run-state writes carry its fencing number. */
  fencing?: WriterFencing | undefined;
}

export const DEFAULT_POOL_SIZE = 10;
export const DEFAULT_STATEMENT_TIMEOUT_MS = 30_000;
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;
const JSON_OID = 114;

/**
 * `json` columns arrive as their text (parsed by the stores), so a stored JSON `null` stays apart from SQL
 * NULL (no value); every other type as `pg` parses it.
 */
const RAW_JSON_TYPES = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === JSON_OID ? (text: string) => text : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/** The pool every store of one database shares. Connection errors of idle clients are reported, not thrown. */
export function openPool(options: PostgresConnectionOptions, onIdleError: (error: Error) => void = () => undefined, clientTimeoutMs = 10_000): pg.Pool {
  if (options.schema !== undefined && !SCHEMA_NAME.test(options.schema))
    throw new Error(`schema "${options.schema}" must be lower-case letters, digits and _ (at most 63)`);
  // The stores' statements are few, simple and prepared (named): one generic plan each, never planned again per call.
  const settings: string[] = ['-c plan_cache_mode=force_generic_plan'];
  if (options.schema !== undefined) settings.push(`-c search_path=${options.schema}`);
  if (options.synchronousCommit !== undefined) settings.push(`-c synchronous_commit=${options.synchronousCommit}`);
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.poolSize ?? DEFAULT_POOL_SIZE,
    statement_timeout: options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS,
    connectionTimeoutMillis: clientTimeoutMs,
    // The leader lease (SCL-02) gives up on a silent server within its renewal period; the stores wait for the server's statement timeout.
    ...(clientTimeoutMs < 10_000 ? { query_timeout: clientTimeoutMs } : {}),
    application_name: 'yukta',
    types: RAW_JSON_TYPES,
    options: settings.join(' '),
  });
  pool.on('error', onIdleError);
  return pool;
}

/** `user@host:port/database` of a URL, without its password: what messages may show of `yukta.postgres.url`. */
export function describeUrl(url: string): string {
  try {
    const u = new URL(url);
    const user = u.username ? `${decodeURIComponent(u.username)}@` : '';
    return `${user}${u.hostname}${u.port ? `:${u.port}` : ''}${u.pathname}`;
  } catch {
    return '(an unparsable URL)';
  }
}

/** SQLSTATE classes and codes of a failed write that go away by themselves (a busy or restarting server). */
const BUSY_CODES = new Set(['40001', '40P01', '55P03', '57014', '53300', '53200', '57P03']);

/**
 * SQLSTATE classes of a batch refused for what a row holds — a data exception (22), an integrity constraint
 * (23), a program limit such as a too-large value (54) — which fail the same way every time, so the writer
 * finds the row and drops it (DUR-01/02) instead of retrying the batch forever.
 */
const ROW_FAILURE_CLASSES = new Set(['22', '23', '54']);

/** Whether a failed batch was refused for a row it holds (not the server, the connection or a lock). */
export function isRowFailure(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.length === 5 && ROW_FAILURE_CLASSES.has(code.slice(0, 2));
}

/** Whether the error lost the connection, so a write may have committed without our hearing it. */
export function isConnectionLoss(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (
    typeof code === 'string' &&
    (code.startsWith('08') ||
      code === '57P01' ||
      code === '57P02' ||
      code === 'ECONNRESET' ||
      code === 'ECONNREFUSED' ||
      code === 'EPIPE' ||
      code === 'ETIMEDOUT')
  )
    return true;
  return error instanceof Error && /Connection terminated|connection timeout|timeout exceeded when trying to connect/i.test(error.message);
}

/** Classifies an error of `pg` as the stores' typed write error (the URL is never part of the message). */
export function toPostgresWriteError(error: unknown, what: string): StoreWriteError {
  if (error instanceof StoreWriteError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === '53100') return new StoreWriteError('STORE_FULL', `${what}: the database server's disk is full (53100): ${message}`, { cause: error });
  if (typeof code === 'string' && BUSY_CODES.has(code))
    return new StoreWriteError('STORE_BUSY', `${what}: the database is busy (${code}): ${message}`, { cause: error });
  if (isConnectionLoss(error))
    return new StoreWriteError(
      'STORE_IO',
      `${what}: the database server cannot be reached (${typeof code === 'string' ? code : 'connection lost'}): ${message}`,
      { cause: error },
    );
  return new StoreWriteError('STORE_IO', `${what}: ${message}`, { cause: error });
}

/** ES2024's well-formed string methods (Node 20 has them; the project's TypeScript library is ES2023). */
interface WellFormed {
  isWellFormed(): boolean;
  toWellFormed(): string;
}

/**
 * Text PostgreSQL accepts: it refuses the NUL character in any text value and a lone surrogate in JSON, so
 * either is stored as U+FFFD (as UTF-8 encoding does with a lone surrogate anyway).
 */
export function pgText(value: string): string {
  const whole = (value as unknown as WellFormed).isWellFormed() ? value : (value as unknown as WellFormed).toWellFormed();
  return whole.includes('\u0000') ? whole.replaceAll('\u0000', '\uFFFD') : whole;
}

/**
 * Rows of a batch as one `jsonb` parameter, an array of arrays read back with `FROM rowsOf($n)` and `r->>i`:
 * one `JSON.stringify` (a few times cheaper than `pg`'s escaping of array parameters, element by element).
 * Text columns must be `pgText`; JSON columns go as JSON strings (`(r->>i)::json`), so what they hold is
 * stored as written, `\u0000` included.
 */
export function rowsParam(rows: readonly unknown[][]): string {
  return JSON.stringify(rows);
}

/** The FROM clause reading `rowsParam` rows as `r` (a jsonb array), in order `o`. */
export function rowsOf(param: string): string {
  return `jsonb_array_elements(${param}::jsonb) WITH ORDINALITY AS x(r, o)`;
}

/** A store's statements, each prepared once per connection under its name (a read's planning is most of its cost). */
export type Statements<K extends string> = { readonly [Key in K]: (values?: readonly unknown[]) => pg.QueryConfig };

/** Names every statement `yukta_<store>_<key>`: `SQL.current([session, id])` is a query config to pass to `query`. */
export function preparedStatements<K extends string>(store: string, texts: Readonly<Record<K, string>>): Statements<K> {
  const out = {} as Record<K, (values?: readonly unknown[]) => pg.QueryConfig>;
  for (const key of Object.keys(texts) as K[]) {
    const name = `yukta_${store}_${key}`;
    const text = texts[key];
    out[key] = (values = []) => ({ name, text, values: [...values] });
  }
  return out;
}

/** Runs `body` in one transaction on a connection of the pool: committed when it resolves, rolled back when it throws. */
export async function inTransaction<T>(pool: pg.Pool, body: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await body(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client.release();
  }
}
