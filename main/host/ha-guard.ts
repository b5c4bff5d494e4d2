import { OPERATION_NAMES, type OperationName } from '../../shared/api/contract';
import { StudioApiError } from '../../shared/api/errors';
import type { Caller } from '../../shared/api/roles';
import type { OperationHandlers } from './operation-handlers';

type AnyHandler = (input: unknown, caller: Caller) => Promise<unknown>;

/**
 * Operations that change what the pair shares in the database (definitions, sessions, the scheduler's
 * limits, supervisors' rules) or steer runs, refused on a standby (SCL-02). Starts, restarts and resumes are
 * refused by the engine itself (counted as `not_leader`); the host's own files (settings, API keys,
 * secrets, breakpoints) and every read stay open.
 */
export const LEADER_ONLY_OPERATIONS: ReadonlySet<OperationName> = new Set<OperationName>([
  'workflows.save',
  'workflows.restore',
  'workflows.delete',
  'sessions.create',
  'sessions.rename',
  'sessions.delete',
  'sessions.applyConfig',
  'runs.setPriority',
  'scheduler.setLimits',
  'control.send',
  'signals.send',
  'plugins.control',
  'supervisors.setRules',
]);

/** Wraps the handlers so a standby refuses the leader-only operations with 503, naming the leader. */
export function withStandbyRefusal(handlers: OperationHandlers, standby: () => string | null): OperationHandlers {
  const wrapped: Record<string, AnyHandler> = {};
  for (const operation of OPERATION_NAMES) {
    const handler = handlers[operation] as AnyHandler;
    wrapped[operation] = LEADER_ONLY_OPERATIONS.has(operation)
      ? async (input, caller) => {
          const refusal = standby();
          if (refusal !== null) throw new StudioApiError('UNAVAILABLE', `${operation} refused: ${refusal}`);
          return handler(input, caller);
        }
      : handler;
  }
  return wrapped as unknown as OperationHandlers;
}
