import { EngineError } from '../engine-errors';

/**
 * A value a store cannot write at all (DUR-01, DUR-02): it nests too deeply for the serializer, holds a
 * cycle or a BigInt, or is too large for a string. Unlike a `StoreWriteError` (disk full, database locked)
 * it is never retried: the operation that brought the value fails with this error and nothing is queued,
 * so the entries behind it are written as usual. It is the caller's bad input (BAD_INPUT on the wire).
 */
export class UnwritableEntryError extends EngineError {
  override readonly name = 'UnwritableEntryError';
  readonly kind = 'bad-input';
  readonly code = 'UNWRITABLE_ENTRY';
  readonly retryable = false;

  constructor(what: string, cause: unknown) {
    super(`${what} cannot be stored: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/**
 * `JSON.stringify` for a store: a value it cannot serialize throws `UnwritableEntryError` naming what it was.
 * `what` may be a function of `subject`, called only on a failure: appends and recorded messages are on the
 * engine's hot path, and a description built up front costs a string per call.
 */
export function serializeForStore<S>(value: unknown, what: string | ((subject: S) => string), subject?: S): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    throw new UnwritableEntryError(typeof what === 'string' ? what : what(subject as S), error);
  }
}

/** How a store names an execution log entry it cannot write. */
export const logEntryName = (entry: { type: string; runId: string }): string => `the ${entry.type} entry of ${entry.runId}`;

/** How a store names a recorded message it cannot write. */
export const checkpointName = (nodeId: string): string => `a checkpoint of node "${nodeId}"`;
