import { randomUUID } from 'node:crypto';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ApiErrorData } from '../../shared/api/errors';
import type { Caller } from '../../shared/api/roles';
import type { StudioHost } from '../host/studio-host';
import type { CallerResolver } from '../http/caller';
import { apiErrorFromThrown, sendApiError } from '../http/http-errors';
import { checkLocalAccess } from '../http/local-access';
import { createStudioMcpServer, type StudioMcpServer } from './mcp-server';

/** Where serve mode answers MCP over streamable HTTP (EXT-04). */
export const MCP_HTTP_PATH = '/mcp';
/** Open MCP sessions kept at once; opening one more closes the one idle longest (its client starts anew on 404). */
export const MAX_MCP_SESSIONS = 64;
const SESSION_HEADER = 'mcp-session-id';

/** Who a session acts for: the caller of its latest request (the key is checked on every request, not only at initialize). */
interface SessionState {
  caller: Caller;
  lastSeen: number;
}

interface McpHttpSession {
  readonly transport: StreamableHTTPServerTransport;
  readonly mcp: StudioMcpServer;
  readonly state: SessionState;
}

/** The MCP sessions of one HTTP server, each bound to the caller (actor) that opened it. */
export class McpHttpSessions {
  private readonly sessions = new Map<string, McpHttpSession>();

  constructor(
    private readonly host: StudioHost,
    private readonly max = MAX_MCP_SESSIONS,
  ) {}

  get size(): number {
    return this.sessions.size;
  }

  get(id: string): McpHttpSession | undefined {
    return this.sessions.get(id);
  }

  /** A new session for an initialize request; its id is chosen here, so it is known before the transport answers. */
  async open(caller: Caller): Promise<{ id: string; session: McpHttpSession }> {
    if (this.sessions.size >= this.max) this.closeIdlest();
    const id = randomUUID();
    const state: SessionState = { caller, lastSeen: Date.now() };
    // Answers as plain JSON: no server-to-client message belongs to a request here (updates go on the GET stream).
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => id, enableJsonResponse: true });
    transport.onclose = () => this.drop(id);
    const session: McpHttpSession = { transport, mcp: createStudioMcpServer(this.host, () => state.caller), state };
    await session.mcp.server.connect(transport);
    this.sessions.set(id, session);
    return { id, session };
  }

  drop(id: string): void {
    const session = this.sessions.get(id);
    if (!session) return;
    this.sessions.delete(id);
    void session.mcp.close().catch(() => undefined);
  }

  async closeAll(): Promise<void> {
    const all = [...this.sessions.values()];
    this.sessions.clear();
    await Promise.all(all.map((s) => s.mcp.close().catch(() => undefined)));
  }

  private closeIdlest(): void {
    let idlest: [string, McpHttpSession] | undefined;
    for (const entry of this.sessions) if (!idlest || entry[1].state.lastSeen < idlest[1].state.lastSeen) idlest = entry;
    if (idlest) this.drop(idlest[0]);
  }
}

function sendJsonRpcError(reply: FastifyReply, status: number, code: number, message: string): FastifyReply {
  return reply
    .code(status)
    .type('application/json; charset=utf-8')
    .send(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}

/**
 * SEC-01 on `/mcp`, as on REST: while no key is set, only loopback Host headers, and — since every MCP
 * request, GET streams included, acts for the caller — no foreign Origin on any method (a page elsewhere
 * must not drive a local agent session: MCP's DNS-rebinding rule). With keys, the key decides.
 */
function localAccessRefusal(host: StudioHost, request: FastifyRequest): ApiErrorData | null {
  if (host.apiKeys.enabled) return null;
  return checkLocalAccess({ method: 'POST', headers: request.headers });
}

/** The session a request continues, a new one for an initialize, or the reply that refuses it. */
async function sessionFor(
  sessions: McpHttpSessions,
  request: FastifyRequest,
  reply: FastifyReply,
  caller: Caller,
): Promise<{ id: string; session: McpHttpSession } | FastifyReply> {
  const header = request.headers[SESSION_HEADER];
  if (typeof header === 'string') {
    const session = sessions.get(header);
    if (!session) return sendJsonRpcError(reply, 404, -32001, 'MCP session not found (closed, or the server restarted): send initialize again');
    const { state } = session;
    if (state.caller.actor !== caller.actor)
      return sendApiError(reply, { code: 'FORBIDDEN', message: `this MCP session belongs to ${state.caller.actor}, not ${caller.actor}` });
    state.caller = caller;
    state.lastSeen = Date.now();
    return { id: header, session };
  }
  if (request.method === 'POST' && isInitializeRequest(request.body)) return sessions.open(caller);
  return sendJsonRpcError(reply, 400, -32000, `no ${SESSION_HEADER} header: start with an initialize request`);
}

/**
 * `/mcp` (POST, GET, DELETE): the StudioApi as MCP over streamable HTTP in serve mode, behind the same API
 * keys, roles and Host/Origin rules as REST. Each session is one MCP server whose tools call the host's
 * dispatch with the request's caller (`key:<name>`). Sessions end on DELETE, at eviction or when the server closes.
 */
export function registerMcpRoute(app: FastifyInstance, host: StudioHost, resolveCaller: CallerResolver): McpHttpSessions {
  const sessions = new McpHttpSessions(host);
  app.route({
    method: ['POST', 'GET', 'DELETE'],
    url: MCP_HTTP_PATH,
    handler: async (request, reply) => {
      const refusal = localAccessRefusal(host, request);
      if (refusal) return sendApiError(reply, refusal);
      let caller: Caller;
      try {
        caller = resolveCaller(request);
      } catch (error) {
        return sendApiError(reply, apiErrorFromThrown(error));
      }
      const found = await sessionFor(sessions, request, reply, caller);
      if (!('session' in found)) return found;
      reply.hijack();
      const raw = reply.raw;
      raw.setHeader('X-Content-Type-Options', 'nosniff');
      raw.setHeader('Cache-Control', 'no-store');
      try {
        await found.session.transport.handleRequest(request.raw, raw, request.body);
      } catch {
        // The transport answers protocol errors itself; anything else must still end the request.
        if (!raw.headersSent)
          raw
            .writeHead(500, { 'content-type': 'application/json; charset=utf-8' })
            .end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32603, message: 'internal error' }, id: null }));
        else raw.end();
      }
      // An initialize the transport refused leaves a session that never started: forget it.
      if (found.session.transport.sessionId === undefined) sessions.drop(found.id);
    },
  });
  app.addHook('preClose', () => sessions.closeAll());
  return sessions;
}
