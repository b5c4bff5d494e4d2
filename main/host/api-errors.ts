import { assertNever } from '../../shared/assert-never';
import { StudioApiError, type ApiErrorCode, type ApiErrorData } from '../../shared/api/errors';
import { EngineError, RefusedByLimitError, ValidationError } from '../../engine/index';

/**
 * The one place an engine failure becomes an API error (ARCHITECTURE.md: the engine never throws the
 * transport's type): its code, the input field at fault, DEF-02 issues, and `Retry-After` for refusals by
 * limit. A StudioApiError (thrown by the host itself) passes as it is. Null for anything else, and for the
 * engine's run-time failures (timeouts, cancels, aborts), which no caller's request causes: those are INTERNAL.
 */
export function apiErrorOf(error: unknown): ApiErrorData | null {
  if (error instanceof StudioApiError) return error.toData();
  if (!(error instanceof EngineError)) return null;
  const code = apiCodeOf(error);
  if (code === null) return null;
  const data: ApiErrorData = { code, message: error.message };
  if (error.path !== undefined) data.path = error.path;
  if (error instanceof ValidationError) data.issues = error.issues;
  if (error instanceof RefusedByLimitError) data.retryAfterSeconds = error.retryAfterSeconds;
  return data;
}

function apiCodeOf(error: EngineError): ApiErrorCode | null {
  const kind = error.kind;
  switch (kind) {
    case 'bad-input':
      return 'BAD_INPUT';
    case 'payload-too-large':
      return 'PAYLOAD_TOO_LARGE';
    case 'validation':
      return 'VALIDATION_FAILED';
    case 'not-found':
      return 'NOT_FOUND';
    case 'conflict':
      return 'CONFLICT';
    case 'rate-limited':
      return 'RATE_LIMITED';
    case 'queue-full':
      return 'QUEUE_FULL';
    case 'unavailable':
      return 'UNAVAILABLE';
    case 'refused':
      return 'FORBIDDEN';
    case 'timeout':
    case 'cancelled':
    case 'run-aborted':
      return null;
    default:
      return assertNever(kind, 'engine error kind');
  }
}
