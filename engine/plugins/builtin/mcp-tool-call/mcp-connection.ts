import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { BadInputError } from '../../../runtime/errors';
import { guardedFetch } from '../../../security/guarded-fetch';
import type { PluginContext } from '../../contract';

/** Where an MCP server is, after templates are rendered. */
export type McpServerSpec =
  | { transport: 'stdio'; command: string; args: string[]; env: Record<string, string>; cwd?: string | undefined }
  | { transport: 'http'; url: string; headers: Record<string, string> };

/** A connected client and how to let it go (the stdio server process ends with it). */
export interface McpConnection {
  client: Client;
  close(): Promise<void>;
}

/** Cap of the stderr text of a stdio server kept for the log. */
const MAX_STDERR_CHARS = 4_000;

/**
 * Stdio servers are processes: they follow PROCESS_EXECUTOR's rules (SEC-03): off unless
 * `yukta.process.enabled`, and only commands listed in `yukta.process.allowed-commands`.
 */
function checkAllowed(command: string, ctx: PluginContext): void {
  const { enabled, allowedCommands } = ctx.services.limits.process;
  if (!enabled)
    throw new BadInputError(
      'MCP stdio servers are processes and are off: set yukta.process.enabled=true and list the command in yukta.process.allowed-commands',
      'PROCESS_DISABLED',
    );
  if (!allowedCommands.includes(command)) throw new BadInputError(`command "${command}" is not in yukta.process.allowed-commands`, 'COMMAND_NOT_ALLOWED');
}

function stdioTransport(spec: Extract<McpServerSpec, { transport: 'stdio' }>, ctx: PluginContext): { transport: StdioClientTransport; stderr: () => string } {
  checkAllowed(spec.command, ctx);
  const transport = new StdioClientTransport({ command: spec.command, args: spec.args, env: spec.env, cwd: spec.cwd, stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => {
    if (stderr.length < MAX_STDERR_CHARS) stderr += chunk.toString('utf8');
  });
  return { transport, stderr: () => stderr.slice(0, MAX_STDERR_CHARS) };
}

function httpTransport(spec: Extract<McpServerSpec, { transport: 'http' }>, ctx: PluginContext): StreamableHTTPClientTransport {
  let url: URL;
  try {
    url = new URL(spec.url);
  } catch {
    throw new BadInputError(`server.url is not a URL: ${spec.url.slice(0, 200)}`, 'BAD_URL');
  }
  // Every request of the session (POSTs, the optional GET stream, DELETE) goes through the guarded client.
  const fetch = guardedFetch(ctx.services.http, ctx.services.limits.http.maxResponseBytes);
  return new StreamableHTTPClientTransport(url, { fetch, requestInit: { headers: spec.headers } });
}

/**
 * Connects to the server for one call (initialize handshake included). When `signal` fires (timeout,
 * CANCEL, KILL) the connection is closed and a stdio server's process is killed at once.
 */
export async function connectMcp(spec: McpServerSpec, ctx: PluginContext, signal: AbortSignal, timeoutMs: number): Promise<McpConnection> {
  const client = new Client({ name: 'yukta-studio', version: '0.1.0' });
  const stdio = spec.transport === 'stdio' ? stdioTransport(spec, ctx) : null;
  const transport = stdio ? stdio.transport : httpTransport(spec as Extract<McpServerSpec, { transport: 'http' }>, ctx);
  const kill = (): void => {
    const pid = stdio?.transport.pid;
    if (pid) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  };
  signal.addEventListener('abort', kill, { once: true });
  const close = async (): Promise<void> => {
    signal.removeEventListener('abort', kill);
    if (signal.aborted) kill();
    await client.close().catch(() => undefined);
    const said = stdio?.stderr().trim();
    if (said) ctx.log.debug(ctx.services.secrets.redactor.redactText(`server stderr: ${said}`));
  };
  try {
    await client.connect(transport, { signal, timeout: timeoutMs });
  } catch (error) {
    await close();
    throw classify(error, signal, 'connect');
  }
  return { client, close };
}

/**
 * An MCP failure as an engine error: refusals of the request (unknown method or tool, invalid
 * parameters; HTTP 4xx other than 408/425/429; a command that does not exist) are bad input, never
 * retried; the rest (5xx, 429, closed connections, timeouts) fail retryably.
 */
export function classify(error: unknown, signal: AbortSignal, during: string): unknown {
  if (signal.aborted) return signal.reason;
  if (error instanceof BadInputError) return error;
  if (
    error instanceof McpError &&
    (error.code === ErrorCode.InvalidParams || error.code === ErrorCode.MethodNotFound || error.code === ErrorCode.InvalidRequest)
  ) {
    return new BadInputError(`MCP ${during}: ${error.message}`, 'MCP_BAD_REQUEST');
  }
  if (error instanceof StreamableHTTPError && error.code !== undefined) {
    const status = error.code;
    const message = `MCP server answered ${status} (${during}): ${error.message.slice(0, 300)}`;
    if (status >= 400 && status < 500 && ![408, 425, 429].includes(status)) return new BadInputError(message, `MCP_HTTP_${status}`);
    return Object.assign(new Error(message), { name: 'McpServerError', code: `MCP_HTTP_${status}` });
  }
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ENOENT' || code === 'EACCES') return new BadInputError(`MCP server command could not start (${String(code)})`, 'MCP_SERVER_NOT_FOUND');
  return error;
}
