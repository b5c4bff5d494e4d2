import type { OperationName } from '../../shared/api/contract';

/** The URI scheme of Yukta's MCP resources. */
export const RESOURCE_SCHEME = 'yukta';
/** Open approvals across runs, oldest first (CTL-05: the one list REST, MCP and the studio share). */
export const APPROVALS_URI = 'yukta://approvals';
export const WORKFLOW_URI_TEMPLATE = 'yukta://workflows/{session}/{workflowId}';
export const RUN_URI_TEMPLATE = 'yukta://runs/{executionId}';

export function workflowUri(session: string, workflowId: string): string {
  return `yukta://workflows/${encodeURIComponent(session)}/${encodeURIComponent(workflowId)}`;
}

export function runUri(executionId: string): string {
  return `yukta://runs/${encodeURIComponent(executionId)}`;
}

/** What a resource URI names: the operation that reads it and its input. */
export type ResourceTarget =
  | { kind: 'approvals'; read: { operation: OperationName; input: Record<string, unknown> } }
  | { kind: 'workflow'; read: { operation: OperationName; input: { session: string; workflowId: string } } }
  | { kind: 'run'; executionId: string; read: { operation: OperationName; input: { executionId: string } } };

function segments(url: URL): string[] | null {
  const parts = url.pathname.split('/').slice(1);
  try {
    return parts.map((p) => decodeURIComponent(p));
  } catch {
    return null;
  }
}

/**
 * Parses a `yukta://` URI into the operation that reads it, or null when it names nothing we serve. The
 * segments are only decoded here: the contract's schema checks them when the operation runs (SEC-03).
 */
export function parseResourceUri(uri: string): ResourceTarget | null {
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return null;
  }
  if (url.protocol !== `${RESOURCE_SCHEME}:` || url.search || url.hash) return null;
  const parts = url.pathname === '' || url.pathname === '/' ? [] : segments(url);
  if (parts === null) return null;
  if (url.host === 'approvals' && parts.length === 0) return { kind: 'approvals', read: { operation: 'approvals.list', input: {} } };
  if (url.host === 'workflows' && parts.length === 2) {
    const [session, workflowId] = parts as [string, string];
    return { kind: 'workflow', read: { operation: 'workflows.get', input: { session, workflowId } } };
  }
  if (url.host === 'runs' && parts.length === 1) {
    const executionId = parts[0]!;
    return { kind: 'run', executionId, read: { operation: 'runs.get', input: { executionId } } };
  }
  return null;
}
