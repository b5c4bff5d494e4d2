import type { ErrorInfo } from '../../shared/events/events';

// The node-level failures live with the other engine errors; plugins keep importing them from here.
export { BadInputError, CancelledError, EngineError, NodeTimeoutError, RunAbortedError } from '../engine-errors';

/** Unknown throws are converted at the node boundary into plain error data. */
export function toErrorInfo(error: unknown): ErrorInfo {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    const info: ErrorInfo = { name: error.name, message: error.message };
    if (typeof code === 'string') info.code = code;
    return info;
  }
  return { name: 'Error', message: typeof error === 'string' ? error : safeStringify(error) };
}

/** A message whose attempts all failed (ENG-04): the last attempt, of how many allowed, and its input. */
export interface FailedMessage {
  attempt: number;
  maxAttempts: number;
  input: unknown;
}

/** Largest input (as JSON text) an error carries whole; a larger one is cut to this many characters. */
export const MAX_ERROR_INPUT_CHARS = 2048;

/** The failed message as error fields: the inspector's Error block shows them (attempt n of m, the input). */
export function failedMessageInfo(failed: FailedMessage): Pick<ErrorInfo, 'attempt' | 'maxAttempts' | 'input'> {
  const text = safeStringify(failed.input);
  const input = text.length > MAX_ERROR_INPUT_CHARS ? `${text.slice(0, MAX_ERROR_INPUT_CHARS)}…` : failed.input;
  return { attempt: failed.attempt, maxAttempts: failed.maxAttempts, input };
}

/** The error's name and code, the keys `retryOn` / `noRetryOn` match against. */
export function errorKeys(error: unknown): string[] {
  if (!(error instanceof Error)) return ['Error'];
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' ? [error.name, code] : [error.name];
}

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
