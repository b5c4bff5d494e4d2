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

/** The run was cancelled by a caller or by a failing branch. */
export class CancelledError extends Error {
  override readonly name = 'CancelledError';
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

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
