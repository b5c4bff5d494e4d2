import type { OperationName } from './contract';

/**
 * How an operation exposes the session it touches, so an API key limited to some sessions (SEC-01) is held
 * to them:
 * - `none`: no session's data (node types, validation of a posted graph);
 * - `session`: input fields that name sessions, each must be one of the key's;
 * - `execution`: an input field naming a run, whose session must be one of the key's (`required`: a scoped
 *   key must name one);
 * - `list`: the answer is filtered to the key's sessions (and an input `session`, when given, is checked);
 * - `global`: every session at once (limits, keys, secrets): refused for a scoped key.
 */
export type SessionScope =
  | { kind: 'none' }
  | { kind: 'global' }
  | { kind: 'session'; fields: readonly string[] }
  | { kind: 'execution'; field: string; required?: boolean }
  | { kind: 'list' };

const NONE = { kind: 'none' } as const;
const GLOBAL = { kind: 'global' } as const;
const SESSION = { kind: 'session', fields: ['session'] } as const;
const EXECUTION = { kind: 'execution', field: 'executionId' } as const;
const LIST = { kind: 'list' } as const;

/** Per operation; an operation not listed is `global` (refused for a scoped key until it says otherwise). */
export const SESSION_SCOPE: { readonly [K in OperationName]?: SessionScope } = {
  'nodeTypes.list': NONE,
  'workflows.validate': NONE,
  'supervisors.list': NONE,
  'auth.whoami': NONE,
  'workflows.list': LIST,
  'runs.list': LIST,
  'sessions.list': LIST,
  'approvals.list': LIST,
  'triggers.list': LIST,
  'workflows.get': SESSION,
  'workflows.save': SESSION,
  'workflows.versions': SESSION,
  'workflows.getVersion': SESSION,
  'workflows.restore': SESSION,
  'workflows.diff': SESSION,
  'workflows.delete': SESSION,
  'runs.start': SESSION,
  'supervisors.getRules': SESSION,
  'supervisors.setRules': SESSION,
  'plugins.control': SESSION,
  'sessions.create': SESSION,
  'sessions.rename': { kind: 'session', fields: ['session', 'newSession'] },
  'sessions.delete': SESSION,
  'sessions.applyConfig': SESSION,
  'runs.get': EXECUTION,
  'runs.wait': EXECUTION,
  'runs.setPriority': EXECUTION,
  'runs.resume': EXECUTION,
  'control.send': EXECUTION,
  'control.state': EXECUTION,
  'signals.send': EXECUTION,
  'control.audit': { kind: 'execution', field: 'executionId', required: true },
  'scheduler.get': GLOBAL,
  'workers.list': GLOBAL,
  'workers.attempts': { kind: 'execution', field: 'executionId', required: true },
  'scheduler.setLimits': GLOBAL,
};

export function sessionScopeOf(operation: OperationName): SessionScope {
  return SESSION_SCOPE[operation] ?? GLOBAL;
}
