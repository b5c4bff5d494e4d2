import type { FastifyReply } from 'fastify';
import { httpStatusOf, type ApiErrorData } from '../../shared/api/errors';
import { apiErrorOf } from '../host/api-errors';
import { internalErrorData, type InternalErrorReporter } from '../host/internal-error';

/** Sends an API error as `{error: ApiErrorData}` with the status its code maps to (and `Retry-After` when it says when). */
export function sendApiError(reply: FastifyReply, error: ApiErrorData): FastifyReply {
  if (error.retryAfterSeconds !== undefined) reply.header('Retry-After', String(error.retryAfterSeconds));
  return reply.code(httpStatusOf(error.code)).type('application/json; charset=utf-8').send(JSON.stringify({ error }));
}

/** Sends an operation's value as JSON with status 200 (serialised here, so a string value stays JSON). */
export function sendApiValue(reply: FastifyReply, value: unknown): FastifyReply {
  return reply
    .code(200)
    .type('application/json; charset=utf-8')
    .send(JSON.stringify(value ?? null));
}

interface FrameworkError {
  code?: unknown;
  statusCode?: unknown;
  message?: unknown;
}

/** The body's content type as the client sent it, for the 415 message. */
export type ContentTypeOf = () => string | undefined;

/**
 * Maps an error raised by fastify itself (body parsing, limits) or by our own code onto the API's error
 * shape. Client errors keep their message; anything else is `internal error <id>`, reported under that id.
 */
export function apiErrorFromThrown(thrown: unknown, report?: InternalErrorReporter, contentType?: ContentTypeOf): ApiErrorData {
  const known = apiErrorOf(thrown);
  if (known) return known;
  const error = (thrown && typeof thrown === 'object' ? thrown : {}) as FrameworkError;
  const message = typeof error.message === 'string' ? error.message : 'request failed';
  const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
  if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || status === 413) {
    return { code: 'PAYLOAD_TOO_LARGE', message: 'request body is larger than the server accepts', path: 'body' };
  }
  if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || status === 415) {
    const type = contentType?.() ?? 'none';
    return {
      code: 'UNSUPPORTED_MEDIA_TYPE',
      message: `content type ${JSON.stringify(type)} is not accepted: send the body as application/json`,
      path: 'content-type',
    };
  }
  if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (error instanceof SyntaxError && status === 400)) {
    return { code: 'BAD_INPUT', message: `body is not valid JSON: ${message}`, path: 'body' };
  }
  if (status >= 400 && status < 500) return { code: 'BAD_INPUT', message };
  return internalErrorData(thrown, report);
}
