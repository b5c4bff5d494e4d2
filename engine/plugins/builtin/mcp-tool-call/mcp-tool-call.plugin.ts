import { z } from 'zod';
import { DEFAULT_PORT } from '../../../../shared/workflow/engine-policy.schema';
import { ToolBudgetConfig } from '../../../budgets/budget-config';
import type { Message } from '../../../runtime/message';
import { definePlugin, type PluginContext } from '../../contract';
import { renderDeep, renderTemplate, type TemplateScope } from '../../expressions/template';
import { withDeadline } from '../shared/deadline';
import { classify, connectMcp, type McpServerSpec } from './mcp-connection';

const MAX_TIMEOUT_MS = 600_000;
/** ENG-05: the idle timeout is the call timeout plus this. */
const IDLE_MARGIN_MS = 5_000;
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;

const StdioServer = z.strictObject({
  transport: z.literal('stdio'),
  /** The server program, exactly as listed in `yukta.process.allowed-commands` (needs `yukta.process.enabled`). */
  command: z.string().min(1).max(4096),
  /** Arguments (templates), passed as an array, never through a shell. */
  args: z.array(z.string().max(65_536)).max(1000).default([]),
  /** Environment of the server (templates; `decrypted:<name>` allowed). */
  env: z.record(z.string().regex(ENV_NAME, 'an environment variable name'), z.string().max(65_536)).default({}),
  cwd: z.string().min(1).max(4096).optional(),
});

const HttpServer = z.strictObject({
  transport: z.literal('http'),
  /** The streamable HTTP endpoint (a template), through the network guard (SEC-03). */
  url: z.string().min(1).max(8192),
  /** Header values are templates; `decrypted:<name>` allowed (e.g. `Bearer decrypted:mcp`). */
  headers: z.record(z.string().regex(HEADER_NAME, 'a header name'), z.string().max(8192)).default({}),
});

const McpToolCallConfig = z.strictObject({
  server: z.discriminatedUnion('transport', [StdioServer, HttpServer]),
  /** The tool's name (a template). */
  tool: z.string().min(1).max(256),
  /** The tool's arguments: JSON whose strings are templates (typed ones like `${payload.n:int}` keep their type). */
  arguments: z.record(z.string(), z.unknown()).default({}),
  timeoutMs: z.number().int().min(1).max(MAX_TIMEOUT_MS).default(60_000),
  /** A result marked `isError` fails the call (`MCP_TOOL_ERROR`, retryable); false emits it. */
  failOnToolError: z.boolean().default(true),
  /** EXT-03: tool calls of the run (or agent) across nodes. */
  budget: ToolBudgetConfig.optional(),
});
type McpToolCallConfig = z.infer<typeof McpToolCallConfig>;

/** A tool answered with `isError: true`. */
export class McpToolError extends Error {
  override readonly name = 'McpToolError';
  readonly code = 'MCP_TOOL_ERROR';
}

function scopeOf(message: Message, ctx: PluginContext): TemplateScope {
  return {
    payload: message.payload,
    metadata: message.metadata,
    context: { executionId: ctx.executionId, nodeId: ctx.nodeId, workflowId: ctx.workflowId, session: ctx.session },
    variables: ctx.services.variables,
  };
}

function serverSpec(config: McpToolCallConfig, scope: TemplateScope, ctx: PluginContext): McpServerSpec {
  const withSecrets = { ...scope, secrets: ctx.services.secrets };
  const text = (t: string, secrets = false): string => String(renderTemplate(t, secrets ? withSecrets : scope));
  const server = config.server;
  if (server.transport === 'stdio') {
    return {
      transport: 'stdio',
      command: server.command,
      args: server.args.map((a) => text(a)),
      env: Object.fromEntries(Object.entries(server.env).map(([k, v]) => [k, text(v, true)])),
      cwd: server.cwd,
    };
  }
  return {
    transport: 'http',
    url: text(server.url),
    headers: Object.fromEntries(Object.entries(server.headers).map(([k, v]) => [k.toLowerCase(), text(v, true)])),
  };
}

interface ToolResult {
  content?: unknown;
  structuredContent?: unknown;
  isError?: unknown;
}

function textOf(content: unknown): string {
  if (!Array.isArray(content)) return '';
  return content
    .filter(
      (b): b is { type: 'text'; text: string } =>
        typeof b === 'object' && b !== null && (b as { type?: unknown }).type === 'text' && typeof (b as { text?: unknown }).text === 'string',
    )
    .map((b) => b.text)
    .join('\n');
}

/**
 * MCP_TOOL_CALL (EXT-01, EXT-03): calls one tool of an MCP server with templated arguments, through the
 * official SDK's client: a stdio server (a process: `yukta.process.enabled` and the allow-list apply) or a
 * streamable HTTP server (through the guarded client, SEC-03). One connection per call, closed after it
 * (the stdio process ends with it, or is killed on timeout, CANCEL or KILL). Counted in the run's budget.
 */
export const mcpToolCallPlugin = definePlugin({
  type: 'MCP_TOOL_CALL',
  kind: 'processor',
  title: 'MCP tool call',
  description: 'Calls a tool of an MCP server (stdio or streamable HTTP); counted against the run budget.',
  configSchema: McpToolCallConfig,
  defaultConfig: { server: { transport: 'http', url: 'https://mcp.example.com/mcp', headers: {} }, tool: 'search', arguments: { query: '${payload.query}' } },
  outputs: [DEFAULT_PORT],
  defaultTimeoutMs: (config) => config.timeoutMs + IDLE_MARGIN_MS,
  async process(message, config, ctx) {
    const scope = scopeOf(message, ctx);
    const tool = String(renderTemplate(config.tool, scope));
    const args = renderDeep(config.arguments, { ...scope, secrets: ctx.services.secrets }) as Record<string, unknown>;
    const spec = serverSpec(config, scope, ctx);
    const used = ctx.services.budgets.admit(ctx.executionId, 'tool', config.budget);
    const result = await withDeadline(ctx, config.timeoutMs, `MCP ${tool}`, async (signal) => {
      const connection = await connectMcp(spec, ctx, signal, config.timeoutMs);
      try {
        return (await connection.client.callTool({ name: tool, arguments: args }, undefined, { signal, timeout: config.timeoutMs })) as ToolResult;
      } catch (error) {
        throw classify(error, signal, `tools/call ${tool}`);
      } finally {
        await connection.close();
      }
    });
    const redact = ctx.services.secrets.redactor;
    const isError = result.isError === true;
    if (isError && config.failOnToolError) throw new McpToolError(redact.redactText(`tool "${tool}" failed: ${textOf(result.content).slice(0, 500)}`));
    const payload = redact.redact({
      tool,
      text: textOf(result.content),
      content: result.content ?? [],
      ...(result.structuredContent !== undefined ? { structuredContent: result.structuredContent } : {}),
      isError,
    });
    const metadata = {
      ...message.metadata,
      'mcp.tool': tool,
      'mcp.transport': spec.transport,
      'mcp.isError': String(isError),
      'budget.toolCalls': String(used.toolCalls),
    };
    return [{ payload, metadata }];
  },
});
