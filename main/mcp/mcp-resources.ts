import type { ReadResourceResult, Resource, ResourceTemplate } from '@modelcontextprotocol/sdk/types.js';
import type { z } from 'zod';
import { STUDIO_API, type OperationName } from '../../shared/api/contract';
import type { ApiResult } from '../../shared/api/errors';
import { McpRequestError, RESOURCE_NOT_FOUND, resourceError } from './mcp-request-error';
import { APPROVALS_URI, parseResourceUri, RUN_URI_TEMPLATE, runUri, WORKFLOW_URI_TEMPLATE, workflowUri, type ResourceTarget } from './resource-uris';

/** Calls one operation for the connection's caller (the host's dispatch: role checks, parsing, scoping). */
export type CallerInvoke = (operation: OperationName, input: unknown) => Promise<ApiResult<unknown>>;

/** Runs `resources/list` names (the newest); older ones are read through the run template. */
export const LISTED_RUNS = 50;
const JSON_MIME = 'application/json';

export const RESOURCE_TEMPLATES: ResourceTemplate[] = [
  {
    uriTemplate: WORKFLOW_URI_TEMPLATE,
    name: 'workflow',
    title: 'Workflow',
    description: 'The current definition of a saved workflow (workflows.get).',
    mimeType: JSON_MIME,
  },
  {
    uriTemplate: RUN_URI_TEMPLATE,
    name: 'run',
    title: 'Run',
    description: "A run: status, every node's status and counts, and its results (runs.get). Subscribe for progress.",
    mimeType: JSON_MIME,
  },
];

const APPROVALS: Resource = {
  uri: APPROVALS_URI,
  name: 'approvals',
  title: 'Open approvals',
  description: 'Messages waiting at WAIT_FOR_SIGNAL nodes across runs, oldest first (approvals.list). Subscribe for changes.',
  mimeType: JSON_MIME,
};

/** A listing's answer parsed with the contract's output schema; nothing when the caller may not list it. */
async function listed<T>(invoke: CallerInvoke, operation: OperationName, input: Record<string, unknown>, output: z.ZodType<T[]>): Promise<T[]> {
  const result = await invoke(operation, input);
  if (!result.ok) return [];
  const parsed = output.safeParse(result.value);
  return parsed.success ? parsed.data : [];
}

/** `resources/list`: open approvals, every workflow the caller may read, and the newest runs. */
export async function listResources(invoke: CallerInvoke): Promise<Resource[]> {
  const workflows = await listed(invoke, 'workflows.list', {}, STUDIO_API['workflows.list'].output);
  const runs = await listed(invoke, 'runs.list', { limit: LISTED_RUNS }, STUDIO_API['runs.list'].output);
  return [
    APPROVALS,
    ...workflows.map((w): Resource => ({
      uri: workflowUri(w.session, w.workflowId),
      name: `${w.session}/${w.workflowId}`,
      description: w.description || `workflow ${w.workflowId}`,
      mimeType: JSON_MIME,
    })),
    ...runs.map((r): Resource => ({
      uri: runUri(r.executionId),
      name: r.executionId,
      description: `run of ${r.session}/${r.workflowId}: ${r.status}`,
      mimeType: JSON_MIME,
    })),
  ];
}

/** The target of a URI, or the JSON-RPC error naming it. */
export function targetOf(uri: string): ResourceTarget {
  const target = parseResourceUri(uri);
  if (!target)
    throw new McpRequestError(RESOURCE_NOT_FOUND, `no resource at ${uri} (${APPROVALS_URI}, ${WORKFLOW_URI_TEMPLATE} or ${RUN_URI_TEMPLATE})`, { uri });
  return target;
}

/** `resources/read`: the operation behind the URI, its answer as JSON text. */
export async function readResource(invoke: CallerInvoke, uri: string): Promise<ReadResourceResult> {
  const { read } = targetOf(uri);
  const result = await invoke(read.operation, read.input);
  if (!result.ok) throw resourceError(result.error);
  return { contents: [{ uri, mimeType: JSON_MIME, text: JSON.stringify(result.value) }] };
}
