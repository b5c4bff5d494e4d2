import { isOperationName, STUDIO_API, type OperationName } from '../../shared/api/contract';
import { StudioApiError, type ApiResult } from '../../shared/api/errors';
import { roleAllows, type Caller } from '../../shared/api/roles';
import { joinPath } from '../../shared/workflow/validation-issue';
import { apiErrorOf } from './api-errors';
import type { OperationHandlers } from './operation-handlers';

/**
 * The one entry every transport calls: refuses unknown operations, checks the caller's role, parses the
 * input with the contract's schema (errors name the field), runs the handler, and returns errors as data.
 */
export async function dispatch(handlers: OperationHandlers, operation: unknown, rawInput: unknown, caller: Caller, onInternalError?: (error: unknown) => void): Promise<ApiResult<unknown>> {
  try {
    if (!isOperationName(operation)) {
      throw new StudioApiError('UNKNOWN_OPERATION', `unknown operation "${String(operation)}"`, 'operation');
    }
    const spec = STUDIO_API[operation];
    if (!roleAllows(caller.role, spec.role)) {
      throw new StudioApiError('FORBIDDEN', `${operation} needs role ${spec.role}; ${caller.actor} has ${caller.role}`);
    }
    const parsed = spec.input.safeParse(rawInput ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const path = joinPath(issue.path);
      throw new StudioApiError('BAD_INPUT', `${path || 'input'}: ${issue.message}`, path || undefined);
    }
    const handler = handlers[operation] as (input: unknown, caller: Caller) => Promise<unknown>;
    return { ok: true, value: await handler(parsed.data, caller) };
  } catch (error) {
    const known = apiErrorOf(error);
    if (known) return { ok: false, error: known };
    onInternalError?.(error);
    return { ok: false, error: { code: 'INTERNAL', message: error instanceof Error ? error.message : 'internal error' } };
  }
}

export type { OperationName };
