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

/** `JSON.stringify` for a store: a value it cannot serialize throws `UnwritableEntryError` naming `what`. */
export function serializeForStore(what: string, value: unknown): string {
  try {
    return JSON.stringify(value);
  } catch (error) {
    throw new UnwritableEntryError(what, error);
  }
}
