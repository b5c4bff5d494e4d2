import { z } from 'zod';
import { ValidationIssue } from '../workflow/validation-issue';

/** Error codes that cross every transport as data (IPC keeps only an Error's message, so never throw across). */
export const ApiErrorCode = z.enum([
  'BAD_INPUT',
  'VALIDATION_FAILED',
  'NOT_FOUND',
  'CONFLICT',
  'UNKNOWN_OPERATION',
  'UNAUTHORIZED',
  'FORBIDDEN',
  'PAYLOAD_TOO_LARGE',
  /** A request body in a content type other than JSON (REST). */
  'UNSUPPORTED_MEDIA_TYPE',
  /** A start refused because a concurrency cap is reached and `yukta.execution.on-limit` is REJECT (ADM-01). */
  'RATE_LIMITED',
  /** A start refused because the queue, or the workflow's queue, is full (ADM-01). */
  'QUEUE_FULL',
  'UNAVAILABLE',
  'INTERNAL',
]);
export type ApiErrorCode = z.infer<typeof ApiErrorCode>;

export const ApiErrorData = z.object({
  code: ApiErrorCode,
  message: z.string(),
  /** Dotted path of the input field at fault, when one is. */
  path: z.string().optional(),
  /** Validation issues (DEF-02) when code is VALIDATION_FAILED. */
  issues: z.array(ValidationIssue).optional(),
  /** When to try again (REST sends it as `Retry-After`), for RATE_LIMITED and QUEUE_FULL. */
  retryAfterSeconds: z.number().int().min(0).optional(),
});
export type ApiErrorData = z.infer<typeof ApiErrorData>;

const HTTP_STATUS: { [K in ApiErrorCode]: number } = {
  BAD_INPUT: 400,
  VALIDATION_FAILED: 422,
  NOT_FOUND: 404,
  CONFLICT: 409,
  UNKNOWN_OPERATION: 404,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMITED: 429,
  QUEUE_FULL: 429,
  UNAVAILABLE: 503,
  INTERNAL: 500,
};

export function httpStatusOf(code: ApiErrorCode): number {
  return HTTP_STATUS[code];
}

/** A typed failure of a StudioApi operation; thrown by the host, re-thrown by the client. */
export class StudioApiError extends Error {
  override readonly name = 'StudioApiError';
  constructor(
    readonly code: ApiErrorCode,
    message: string,
    readonly path?: string,
    readonly issues?: ValidationIssue[],
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
  }

  toData(): ApiErrorData {
    const data: ApiErrorData = { code: this.code, message: this.message };
    if (this.path !== undefined) data.path = this.path;
    if (this.issues !== undefined) data.issues = this.issues;
    if (this.retryAfterSeconds !== undefined) data.retryAfterSeconds = this.retryAfterSeconds;
    return data;
  }

  static fromData(data: ApiErrorData): StudioApiError {
    return new StudioApiError(data.code, data.message, data.path, data.issues, data.retryAfterSeconds);
  }
}

/** What every transport returns: a value or an error as data. */
export type ApiResult<T> = { ok: true; value: T } | { ok: false; error: ApiErrorData };
