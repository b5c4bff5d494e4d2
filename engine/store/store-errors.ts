import type { UnwritableEntryError } from './unwritable-entry-error';

/**
 * Why a durable store could not write (DUR-01, DUR-02): the disk is full, the database stayed locked, another
 * I/O error, or (SCL-02) the database refused a writer whose leader lease another host has taken.
 */
export type StoreWriteFailure = 'STORE_FULL' | 'STORE_BUSY' | 'STORE_IO' | 'STORE_FENCED';

/**
 * A write of a durable store failed; nothing of the failed batch was kept (a JSONL file is cut back to its
 * last complete line, a SQLite transaction is rolled back). The entries stay queued and are written again
 * at the next flush, so the store recovers once the cause goes away.
 */
export class StoreWriteError extends Error {
  override readonly name = 'StoreWriteError';
  /** Tried again at the next flush (an `UnwritableEntryError` never is). */
  readonly retryable = true;
  constructor(
    readonly code: StoreWriteFailure,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/** What a store's background writer reports: a failed write (retried) or an entry it dropped for good. */
export type StoreWriteProblem = StoreWriteError | UnwritableEntryError;

/** The JSONL log has a damaged line before its last one: it is reported with its line number, never skipped. */
export class LogCorruptionError extends Error {
  override readonly name = 'LogCorruptionError';
  constructor(
    readonly file: string,
    readonly line: number,
    detail: string,
  ) {
    super(
      `${file}: line ${line} is damaged (${detail}); lines after it are not read. Move the file aside to start with an empty log, or cut it before line ${line}.`,
    );
  }
}

/** Classifies a write error of `fs` or better-sqlite3. */
export function toStoreWriteError(error: unknown, what: string): StoreWriteError {
  if (error instanceof StoreWriteError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  if (code === 'ENOSPC' || code === 'EDQUOT' || code === 'SQLITE_FULL')
    return new StoreWriteError('STORE_FULL', `${what}: the disk is full (${String(code)}): ${message}`, { cause: error });
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED' || (typeof code === 'string' && code.startsWith('SQLITE_BUSY'))) {
    return new StoreWriteError('STORE_BUSY', `${what}: the database stayed locked by another connection beyond its busy timeout (${String(code)})`, {
      cause: error,
    });
  }
  return new StoreWriteError('STORE_IO', `${what}: ${message}`, { cause: error });
}

/**
 * Whether a failed write is worth trying again (DUR-01/02): an I/O error of the file system (an errno such
 * as ENOSPC, EIO, EACCES) or of SQLite's disk, lock and memory classes. Anything else — a value the
 * serializer refuses, a string too big for SQLite, a constraint — fails the same way every time, so the
 * writer drops that entry instead of queueing it again in front of the others.
 */
export function isTransientWriteError(error: unknown): boolean {
  if (error instanceof StoreWriteError) return true;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return false;
  if (code.startsWith('SQLITE_')) return TRANSIENT_SQLITE.some((prefix) => code.startsWith(prefix));
  // Node's file system errors carry an errno name (ENOSPC, EIO, EACCES); our own codes have underscores.
  return /^E[A-Z0-9]+$/.test(code);
}

const TRANSIENT_SQLITE = [
  'SQLITE_FULL',
  'SQLITE_BUSY',
  'SQLITE_LOCKED',
  'SQLITE_IOERR',
  'SQLITE_NOMEM',
  'SQLITE_CANTOPEN',
  'SQLITE_PROTOCOL',
  'SQLITE_READONLY',
];
