import { isOperationName, STUDIO_API, type OperationName } from '../../shared/api/contract';
import { StudioApiError, type ApiResult } from '../../shared/api/errors';
import { roleAllows, type Caller } from '../../shared/api/roles';
import { apiErrorOf } from './api-errors';
import { parseOperationInput, type InputLimits } from './input-parse';
import { internalErrorData, type InternalErrorReporter } from './internal-error';
import type { OperationHandlers } from './operation-handlers';

export interface DispatchOptions {
  limits: InputLimits;
  onInternalError?: InternalErrorReporter;
}

/**
 * The one entry every transport calls: refuses unknown operations, checks the caller's role, holds the
 * input to the limits and parses it with the contract's schema (errors name the field), runs the
 * handler, and returns errors as data. A value no store can write is the caller's bad input.
 */
export async function dispatch(
  handlers: OperationHandlers,
  operation: unknown,
  rawInput: unknown,
  caller: Caller,
  options: DispatchOptions,
): Promise<ApiResult<unknown>> {
  try {
    if (!isOperationName(operation)) {
      throw new StudioApiError('UNKNOWN_OPERATION', `unknown operation "${String(operation)}"`, 'operation');
    }
    const spec = STUDIO_API[operation];
    if (!roleAllows(caller.role, spec.role)) {
      throw new StudioApiError('FORBIDDEN', `${operation} needs role ${spec.role}; ${caller.actor} has ${caller.role}`);
    }
    const input = parseOperationInput(operation, rawInput, options.limits);
    const handler = handlers[operation] as (input: unknown, caller: Caller) => Promise<unknown>;
    return { ok: true, value: await handler(input, caller) };
  } catch (error) {
    const known = apiErrorOf(error);
    if (known) return { ok: false, error: known };
    return { ok: false, error: internalErrorData(error, options.onInternalError) };
  }
}

export type { OperationName };
