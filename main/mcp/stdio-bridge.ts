import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { FetchLike, Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  InitializeResultSchema,
  isInitializeRequest,
  isJSONRPCRequest,
  isJSONRPCResultResponse,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { MCP_HTTP_PATH } from './mcp-http-route';

/** The `/mcp` endpoint of a host: `--url http://127.0.0.1:4310` and `--url http://127.0.0.1:4310/mcp` both work. */
export function mcpEndpoint(url: string): URL {
  let base: URL;
  try {
    base = new URL(url);
  } catch {
    throw new Error(`--url must be an http(s) address such as http://127.0.0.1:4310, not "${url}"`);
  }
  if (base.protocol !== 'http:' && base.protocol !== 'https:') throw new Error(`--url must be an http(s) address, not "${url}"`);
  return base.pathname.replace(/\/+$/, '').endsWith(MCP_HTTP_PATH) ? base : new URL(MCP_HTTP_PATH, base);
}

/**
 * `fetch` with a signal of its own per request. The SDK's transport hands one connection-wide signal to
 * every request, and Node's fetch keeps an abort listener on it until garbage collection, so a long bridge
 * would pile up thousands (MaxListenersExceededWarning). Ours is tied to the connection's signal while the
 * request lasts — for an event stream, as long as the stream (closing the bridge must end it).
 */
export const isolatedAbortFetch: FetchLike = async (url, init) => {
  const shared = init?.signal;
  if (!shared) return fetch(url, init);
  const own = new AbortController();
  const abort = (): void => own.abort(shared.reason);
  if (shared.aborted) abort();
  else shared.addEventListener('abort', abort, { once: true });
  let streaming = false;
  try {
    const response = await fetch(url, { ...init, signal: own.signal });
    streaming = (response.headers.get('content-type') ?? '').startsWith('text/event-stream');
    return response;
  } finally {
    if (!streaming) shared.removeEventListener('abort', abort);
  }
};

/** The HTTP side of the bridge: the host's `/mcp`, presenting the key on every request (SEC-01). */
export function remoteTransport(endpoint: URL, key: string | undefined): StreamableHTTPClientTransport {
  return new StreamableHTTPClientTransport(endpoint, { fetch: isolatedAbortFetch, requestInit: { headers: key ? { authorization: `Bearer ${key}` } : {} } });
}

/**
 * Relays MCP messages between the agent (stdio) and a running host's streamable HTTP endpoint, unchanged:
 * the host's MCP server answers everything, with the key's role. Only protocol glue lives here — the
 * negotiated version is handed to the HTTP transport (as the SDK's client would), and a request the host
 * refuses at the HTTP level, or cannot be reached for, is answered with an error instead of hanging. Resolves when either side closes.
 */
export async function relayStdioToHttp(local: Transport, remote: StreamableHTTPClientTransport, endpoint: URL, log: (line: string) => void): Promise<void> {
  const initializing = new Set<RequestId>();
  const closed = new Promise<void>((resolve) => {
    local.onclose = resolve;
    remote.onclose = resolve;
  });
  local.onmessage = (message) => {
    if (isInitializeRequest(message) && isJSONRPCRequest(message)) initializing.add(message.id);
    remote.send(message).catch((error: unknown) => {
      const detail = error instanceof Error ? error.message : String(error);
      // An HTTP answer (401, 403, 404 for a session the host no longer has) is a refusal; anything else, no host.
      const text =
        error instanceof StreamableHTTPError
          ? `the host at ${endpoint.href} refused the message: ${detail}`
          : `cannot reach the host at ${endpoint.href}: ${detail}`;
      log(`yukta mcp: ${text}`);
      if (isJSONRPCRequest(message)) void local.send({ jsonrpc: '2.0', id: message.id, error: { code: ErrorCode.InternalError, message: text } });
    });
  };
  remote.onmessage = (message) => {
    if (isJSONRPCResultResponse(message) && initializing.delete(message.id)) {
      const result = InitializeResultSchema.safeParse(message.result);
      if (result.success) remote.setProtocolVersion(result.data.protocolVersion);
    }
    void local.send(message);
  };
  remote.onerror = (error) => log(`yukta mcp: ${error.message}`);
  await remote.start();
  await local.start();
  await closed;
}
