// The SDK's low-level Server (not McpServer): our tools carry JSON Schema made from the contract, and their
// input is parsed by the host's dispatch, so the errors name the field the way every other transport does.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  ReadResourceRequestSchema,
  SubscribeRequestSchema,
  UnsubscribeRequestSchema,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import type { OperationName } from '../../shared/api/contract';
import type { ApiResult } from '../../shared/api/errors';
import type { Caller } from '../../shared/api/roles';
import { McpRequestError } from './mcp-request-error';
import { listResources, readResource, RESOURCE_TEMPLATES, type CallerInvoke } from './mcp-resources';
import { MCP_TOOLS, notForAgentsReason, toolNamed } from './mcp-tools';
import { ResourceSubscriptions, type EventFeed } from './resource-subscriptions';
import { toolResult } from './tool-results';

/** What an MCP server needs of the host: `dispatch` for a caller, and the event feed. */
export interface McpHostPort extends EventFeed {
  invoke(operation: unknown, input: unknown, caller: Caller): Promise<ApiResult<unknown>>;
}

export const MCP_SERVER_NAME = 'yukta-studio';
export const MCP_SERVER_VERSION = '0.1.0';

/** Told to the agent at initialize: where to start. */
const INSTRUCTIONS = [
  'Yukta Studio builds, runs and debugs workflows. nodeTypes.list and workflows.list show what exists;',
  'workflows.save stores a definition (validated first); runs.start starts a run and runs.wait waits for it to end.',
  'Runs waiting for a person appear in approvals.list (resource yukta://approvals); answer them with signals.send.',
  'Read yukta://runs/<executionId> for a run, and subscribe to it for progress. Errors name the code and the field.',
].join(' ');

const TOOL_LIST: Tool[] = MCP_TOOLS.map((t) => ({
  name: t.name,
  description: t.description,
  inputSchema: t.inputSchema,
  annotations: { readOnlyHint: t.readOnly },
}));

export interface StudioMcpServer {
  readonly server: Server;
  /** Ends the connection's subscriptions and closes its transport. */
  close(): Promise<void>;
}

function unknownTool(name: string): McpRequestError {
  const reason = notForAgentsReason(name);
  if (reason) return new McpRequestError(ErrorCode.InvalidParams, `${name} is not offered to agents: ${reason}`);
  return new McpRequestError(ErrorCode.InvalidParams, `unknown tool "${name}" (tools/list names the ${MCP_TOOLS.length} tools)`);
}

/**
 * One MCP server (one connection) over the StudioApi: every exposed contract operation as a tool, workflows,
 * runs and approvals as resources, and run progress as resource updates. No logic of its own: each request
 * becomes one `dispatch` with the connection's caller (`caller()` is read at each request).
 */
export function createStudioMcpServer(host: McpHostPort, caller: () => Caller): StudioMcpServer {
  const server = new Server(
    { name: MCP_SERVER_NAME, version: MCP_SERVER_VERSION },
    { capabilities: { tools: {}, resources: { subscribe: true } }, instructions: INSTRUCTIONS },
  );
  const invoke: CallerInvoke = (operation: OperationName, input: unknown) => host.invoke(operation, input, caller());
  const notify = (uri: string): void => {
    server.sendResourceUpdated({ uri }).catch(() => undefined); // a connection gone mid-send has nobody to tell
  };
  const subscriptions = new ResourceSubscriptions(host, invoke, caller, notify);

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: TOOL_LIST }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const tool = toolNamed(request.params.name);
    if (!tool) throw unknownTool(request.params.name);
    return toolResult(await invoke(tool.operation, request.params.arguments ?? {}));
  });
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: await listResources(invoke) }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: RESOURCE_TEMPLATES }));
  server.setRequestHandler(ReadResourceRequestSchema, (request) => readResource(invoke, request.params.uri));
  server.setRequestHandler(SubscribeRequestSchema, async (request) => {
    await subscriptions.subscribe(request.params.uri);
    return {};
  });
  server.setRequestHandler(UnsubscribeRequestSchema, (request) => {
    subscriptions.unsubscribe(request.params.uri);
    return {};
  });
  server.onclose = () => subscriptions.close();

  return {
    server,
    close: async () => {
      subscriptions.close();
      await server.close();
    },
  };
}
