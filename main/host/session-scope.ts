import { assertNever } from '../../shared/assert-never';
import { OPERATION_NAMES, type OperationName } from '../../shared/api/contract';
import { StudioApiError } from '../../shared/api/errors';
import type { Caller } from '../../shared/api/roles';
import { sessionScopeOf } from '../../shared/api/session-scope';
import type { OperationHandlers } from './operation-handlers';

type AnyHandler = (input: unknown, caller: Caller) => Promise<unknown>;

function field(input: unknown, name: string): unknown {
  return input && typeof input === 'object' ? (input as Record<string, unknown>)[name] : undefined;
}

function outside(caller: Caller, what: string): StudioApiError {
  return new StudioApiError('FORBIDDEN', `${caller.actor} is limited to session(s) ${caller.sessions!.join(', ')}; ${what}`);
}

/** Checks a scoped caller's input before the operation runs (SEC-01); throws the refusal. */
function checkInput(operation: OperationName, input: unknown, caller: Caller, runSession: (executionId: string) => string | null): void {
  const allowed = caller.sessions!;
  const scope = sessionScopeOf(operation);
  switch (scope.kind) {
    case 'none':
      return;
    case 'global':
      throw outside(caller, `${operation} concerns every session`);
    case 'session':
      for (const name of scope.fields) {
        const session = field(input, name);
        if (typeof session === 'string' && !allowed.includes(session)) throw outside(caller, `session "${session}" is not one of them`);
      }
      return;
    case 'list': {
      const session = field(input, 'session');
      if (typeof session === 'string' && !allowed.includes(session)) throw outside(caller, `session "${session}" is not one of them`);
      const executionId = field(input, 'executionId');
      if (typeof executionId === 'string') checkRun(executionId, caller, runSession);
      return;
    }
    case 'execution': {
      const executionId = field(input, scope.field);
      if (typeof executionId === 'string') checkRun(executionId, caller, runSession);
      else if (scope.required) throw outside(caller, `${operation} must name a run (${scope.field})`);
      return;
    }
    default:
      return assertNever(scope, 'session scope');
  }
}

function checkRun(executionId: string, caller: Caller, runSession: (executionId: string) => string | null): void {
  const session = runSession(executionId);
  // A run of another session is reported as unknown: a scoped key learns nothing about other sessions.
  if (session === null || !caller.sessions!.includes(session)) throw new StudioApiError('NOT_FOUND', `run "${executionId}" does not exist`, 'executionId');
}

/** Keeps the items of a listing that belong to the caller's sessions. */
function filterOutput(output: unknown, caller: Caller): unknown {
  if (!Array.isArray(output)) return output;
  return output.filter((item) => {
    const session = field(item, 'session');
    return typeof session === 'string' && caller.sessions!.includes(session);
  });
}

/**
 * Session scoping (SEC-01): wraps every handler so a caller limited to sessions only touches them — inputs
 * naming another session are refused, runs of other sessions look unknown, listings are filtered, and
 * operations over every session are refused. Callers without a session list pass straight through.
 */
export function withSessionScope(handlers: OperationHandlers, runSession: (executionId: string) => string | null): OperationHandlers {
  const wrapped: Record<string, AnyHandler> = {};
  for (const operation of OPERATION_NAMES) {
    const handler = handlers[operation] as AnyHandler;
    const listing = sessionScopeOf(operation).kind === 'list';
    wrapped[operation] = async (input, caller) => {
      if (!caller.sessions) return handler(input, caller);
      checkInput(operation, input, caller, runSession);
      const output = await handler(input, caller);
      return listing ? filterOutput(output, caller) : output;
    };
  }
  return wrapped as unknown as OperationHandlers;
}
