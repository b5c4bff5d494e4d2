import { identifierProblem } from '../../../shared/workflow/identifier';

/** The workflow named in the URL hash: `#/w/<session>/<workflowId>`, so a reload reopens it. */
export interface WorkflowRoute {
  session: string;
  workflowId: string;
}

export function parseWorkflowHash(hash: string): WorkflowRoute | null {
  const match = /^#\/w\/([^/]+)\/([^/]+)\/?$/.exec(hash);
  if (!match) return null;
  try {
    const session = decodeURIComponent(match[1]!);
    const workflowId = decodeURIComponent(match[2]!);
    return identifierProblem(session) || identifierProblem(workflowId) ? null : { session, workflowId };
  } catch {
    return null;
  }
}

export function workflowHash(route: WorkflowRoute | null): string {
  return route ? `#/w/${encodeURIComponent(route.session)}/${encodeURIComponent(route.workflowId)}` : '#/';
}

/** Sets the hash without adding a history entry per save. */
export function replaceWorkflowHash(route: WorkflowRoute | null): void {
  const hash = workflowHash(route);
  if (window.location.hash === hash) return;
  window.history.replaceState(null, '', hash);
}

/** A new workflow in a session other than the default one: `#/s/<session>`, so a reload keeps the session. */
export function parseSessionHash(hash: string): string | null {
  const match = /^#\/s\/([^/]+)\/?$/.exec(hash);
  if (!match) return null;
  try {
    const session = decodeURIComponent(match[1]!);
    return identifierProblem(session) ? null : session;
  } catch {
    return null;
  }
}

export function replaceSessionHash(session: string | null): void {
  const hash = session === null ? '#/' : `#/s/${encodeURIComponent(session)}`;
  if (window.location.hash === hash) return;
  window.history.replaceState(null, '', hash);
}
