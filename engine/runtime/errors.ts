import type { ErrorInfo } from '../../shared/events/events';

/** A plugin's signal that its input is wrong; never retried (ENG-04). */
export class BadInputError extends Error {
  override readonly name = 'BadInputError';
  constructor(
    message: string,
    readonly code = 'BAD_INPUT',
  ) {
    super(message);
  }
}

/** A node or one of its attempts ran out of time (ENG-05). */
export class NodeTimeoutError extends Error {
  override readonly name = 'NodeTimeoutError';
  constructor(
    message: string,
    readonly code: 'ELEMENT_TIMEOUT' | 'IDLE_TIMEOUT' | 'DEADLINE' | 'RUN_DEADLINE',
  ) {
    super(message);
  }
}

/** The run or node was cancelled by a caller or by a failing branch. */
export class CancelledError extends Error {
  override readonly name = 'CancelledError';
  readonly code = 'CANCELLED';
}

/** Ends the whole run at once; never retried, dropped or routed (EXT-03 hardStop). */
export class RunAbortedError extends Error {
  override readonly name = 'RunAbortedError';
  readonly code = 'RUN_ABORTED';
}

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
