import { randomBytes } from 'node:crypto';
import type { ApiErrorData } from '../../shared/api/errors';

/** Receives an unexpected error with the id its caller was given (the log line and the answer share it). */
export type InternalErrorReporter = (error: unknown, id: string) => void;

/**
 * The answer to an unexpected error: `internal error <id>`, never the exception's text (it may name files,
 * queries or values); the error itself goes to the reporter under the same id.
 */
export function internalErrorData(error: unknown, report?: InternalErrorReporter): ApiErrorData {
  const id = randomBytes(6).toString('hex');
  report?.(error, id);
  return { code: 'INTERNAL', message: `internal error ${id}` };
}
