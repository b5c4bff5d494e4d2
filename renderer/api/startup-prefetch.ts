import type { StudioClient } from '../../shared/api/client';

/**
 * Starts the studio's first reads (node types, and the workflow named in the URL) while the bundle is still
 * rendering the shell, instead of after the first render: the first matching call of each is answered by
 * the request already in flight; every later call goes to the server as usual.
 */
export function withStartupPrefetch(client: StudioClient, route: { session: string; workflowId: string } | null): StudioClient {
  const nodeTypes = quiet(client['nodeTypes.list']({}));
  let workflow = route ? { ...route, result: quiet(client['workflows.get']({ session: route.session, workflowId: route.workflowId })) } : null;
  let types: typeof nodeTypes | null = nodeTypes;
  return {
    ...client,
    'nodeTypes.list': (input) => {
      const pending = types;
      types = null;
      return pending ?? client['nodeTypes.list'](input);
    },
    'workflows.get': (input) => {
      const pending = workflow && input.workflowId === workflow.workflowId && (input.session ?? 'default') === workflow.session ? workflow.result : null;
      workflow = null;
      return pending ?? client['workflows.get'](input);
    },
  };
}

/** The same promise, marked handled: a prefetch nobody takes must not report an unhandled rejection. */
function quiet<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => undefined);
  return promise;
}
