import type { FastifyInstance, FastifyRequest } from 'fastify';
import { OPERATION_NAMES, STUDIO_API, type OperationName } from '../../shared/api/contract';
import { inputFromHttp } from '../../shared/api/http-routes';
import type { StudioHost } from '../host/studio-host';
import type { CallerResolver } from './caller';
import { apiErrorFromThrown, sendApiError, sendApiValue } from './http-errors';

/** Header whose value becomes `runs.start`'s `idempotencyKey` (ADM-02). */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';

type QueryRecord = Record<string, string | string[]>;

/** Reads an operation's input from a request exactly as `toHttpRequest` wrote it. */
export function operationInput(operation: OperationName, request: FastifyRequest): Record<string, unknown> {
  const params = (request.params ?? {}) as Record<string, string>;
  const query = (request.query ?? {}) as QueryRecord;
  const input = inputFromHttp(operation, params, query, request.body);
  if (operation === 'runs.start') {
    const key = request.headers[IDEMPOTENCY_KEY_HEADER];
    if (typeof key === 'string') input.idempotencyKey = key;
  }
  return input;
}

/**
 * One REST route per operation of the contract, from its `http` spec: a new operation gets its route
 * without a change here. The host parses the input, checks the role and returns errors as data.
 */
export function registerOperationRoutes(app: FastifyInstance, host: StudioHost, resolveCaller: CallerResolver): void {
  for (const operation of OPERATION_NAMES) {
    const { method, path } = STUDIO_API[operation].http;
    app.route({
      method,
      url: path,
      handler: async (request, reply) => {
        let caller;
        try {
          caller = resolveCaller(request);
        } catch (error) {
          return sendApiError(
            reply,
            apiErrorFromThrown(error, (e, id) => host.reportInternalError(e, id)),
          );
        }
        const result = await host.invoke(operation, operationInput(operation, request), caller);
        return result.ok ? sendApiValue(reply, result.value) : sendApiError(reply, result.error);
      },
    });
  }
}
