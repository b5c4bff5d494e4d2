import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import type { StudioHost } from '../host/studio-host';
import { registerMcpRoute } from '../mcp/mcp-http-route';
import { apiKeyCallerResolver } from './api-key-auth';
import type { CallerResolver } from './caller';
import { registerEventStream, type OpenStreams } from './event-stream';
import { serverOriginParam } from '../../shared/desktop/server-address';
import { installCors } from './cors';
import { StudioApiError } from '../../shared/api/errors';
import type { InternalErrorReporter } from '../host/internal-error';
import { apiErrorFromThrown, sendApiError } from './http-errors';
import { checkLocalAccess } from './local-access';
import { registerMetricsRoute } from './metrics-route';
import { registerOperationRoutes } from './operation-routes';
import { isApiPath, registerRenderer } from './renderer-static';

/** Largest request body accepted (1 MiB); larger bodies get 413 PAYLOAD_TOO_LARGE. */
export const MAX_BODY_BYTES = 1024 * 1024;
export const DEFAULT_HTTP_HOST = '127.0.0.1';
export const DEFAULT_HTTP_PORT = 4310;

/** Sent with every response; the renderer needs inline styles (React Flow), nothing else from elsewhere. */
export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'";

export interface HttpServerOptions {
  host: StudioHost;
  /** The built renderer (`dist/renderer`); without it only the API is served. */
  rendererDir?: string;
  /** Where to listen; 127.0.0.1:4310 by default, port 0 picks a free port. */
  bind?: { host?: string; port?: number };
  /** Who calls, from a request. Defaults to the host's API keys (SEC-01), or the loopback ADMIN while there are none. */
  resolveCaller?: CallerResolver;
  /** The SEC-01 Host/Origin filter; on by default, applied for as long as the host has no API key. */
  localAccessOnly?: boolean;
  bodyLimit?: number;
  heartbeatMs?: number;
  /** Receives unexpected errors with their id (the client only ever sees `internal error <id>`); the host's reporter by default. */
  onInternalError?: InternalErrorReporter;
}

export interface StudioHttpServer {
  readonly app: FastifyInstance;
  /** True when the renderer folder was found and is served. */
  readonly servesRenderer: boolean;
  /** Starts listening; resolves with the address to print (`http://127.0.0.1:PORT`). */
  listen(): Promise<{ url: string; port: number }>;
  /** Ends open event streams and stops the server; the host stays open (its owner closes it). */
  close(): Promise<void>;
}

function urlOf(host: string, port: number): string {
  const shown = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host;
  return `http://${shown.includes(':') ? `[${shown}]` : shown}:${port}`;
}

/**
 * The page's policy: strict, except that a studio opened on a team server (`/?server=<origin>`, STU-08
 * Connect to server) may also call that one origin — which still has to allow this page (CORS, with a key).
 */
export function contentSecurityPolicyFor(url: string): string {
  const query = url.indexOf('?');
  const path = query < 0 ? url : url.slice(0, query);
  const origin = query < 0 || isApiPath(path) ? null : serverOriginParam(url.slice(query));
  return origin ? CONTENT_SECURITY_POLICY.replace("connect-src 'self'", `connect-src 'self' ${origin}`) : CONTENT_SECURITY_POLICY;
}

function installGuards(app: FastifyInstance, options: HttpServerOptions, streams: OpenStreams): void {
  const localAccessOnly = options.localAccessOnly ?? true;
  if (localAccessOnly) {
    app.addHook('onRequest', async (request, reply) => {
      if (options.host.apiKeys.enabled) return; // every API request presents a key instead
      const refusal = checkLocalAccess({ method: request.method, headers: request.headers });
      if (refusal) return sendApiError(reply, refusal);
    });
  }
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('Content-Security-Policy', contentSecurityPolicyFor(request.url));
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'no-referrer');
    return payload;
  });
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
    for (const stream of streams) stream.end();
    streams.clear();
  });
  // A keep-alive connection whose request was still being answered when the server began to close is
  // dropped as soon as that answer is out, so close() does not wait for the client's keep-alive timeout.
  app.addHook('onResponse', async () => {
    if (closing) setImmediate(() => app.server.closeIdleConnections());
  });
  const report = options.onInternalError ?? ((error: unknown, id: string) => options.host.reportInternalError(error, id));
  app.setErrorHandler((error, request, reply) =>
    sendApiError(
      reply,
      apiErrorFromThrown(error, report, () => request.headers['content-type']),
    ),
  );
}

/**
 * Request bodies are JSON and nothing else (415 names any other type). Parsed with plain `JSON.parse`
 * (iterative in V8, so deep nesting cannot overflow it): `__proto__` keys arrive as data and the host's
 * input check refuses them by path, instead of fastify's prototype check answering "not valid JSON".
 */
function installBodyParser(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text) as unknown);
    } catch (error) {
      done(new StudioApiError('BAD_INPUT', `body is not valid JSON: ${(error as Error).message}`, 'body'), undefined);
    }
  });
}

function installNotFound(app: FastifyInstance, servesRenderer: boolean): void {
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (isApiPath(path)) {
      return sendApiError(reply, { code: 'UNKNOWN_OPERATION', message: `no API route ${request.method} ${path}` });
    }
    // SPA fallback: the renderer routes on the client, so any other page GET gets index.html.
    if (servesRenderer && (request.method === 'GET' || request.method === 'HEAD')) {
      return reply.type('text/html; charset=utf-8').sendFile('index.html');
    }
    return sendApiError(reply, { code: 'NOT_FOUND', message: `nothing at ${request.method} ${path}` });
  });
}

/**
 * The StudioApi over REST + SSE for serve mode and browsers: one route per contract operation, the event
 * stream, MCP at `/mcp`, the built renderer, and the SEC-01 local-access filter. Does not listen until `listen()`.
 */
export async function createHttpServer(options: HttpServerOptions): Promise<StudioHttpServer> {
  // On close, idle keep-alive connections are dropped but a request in flight gets its answer (ADM-01
  // shutdown: a signal that lets the last run end must not lose its reply); event streams end in preClose.
  const app = Fastify({ bodyLimit: options.bodyLimit ?? MAX_BODY_BYTES, logger: false, forceCloseConnections: 'idle' });
  const streams: OpenStreams = new Set();
  const resolveCaller = options.resolveCaller ?? apiKeyCallerResolver(options.host.apiKeys);
  installCors(app, { origins: options.host.settings['yukta.http.cors-origins'], keysRequired: () => options.host.apiKeys.enabled });
  installGuards(app, options, streams);
  installBodyParser(app);
  registerOperationRoutes(app, options.host, resolveCaller);
  registerEventStream(app, options.host, resolveCaller, streams, options.heartbeatMs === undefined ? {} : { heartbeatMs: options.heartbeatMs });
  registerMetricsRoute(app, options.host, resolveCaller);
  registerMcpRoute(app, options.host, resolveCaller); // EXT-04: /mcp, the same contract as MCP over streamable HTTP
  const servesRenderer = await registerRenderer(app, options.rendererDir);
  installNotFound(app, servesRenderer);
  const bindHost = options.bind?.host ?? DEFAULT_HTTP_HOST;
  const bindPort = options.bind?.port ?? DEFAULT_HTTP_PORT;
  return {
    app,
    servesRenderer,
    async listen() {
      await app.listen({ host: bindHost, port: bindPort });
      const { port } = app.server.address() as AddressInfo;
      return { url: urlOf(bindHost, port), port };
    },
    close: () => app.close(),
  };
}
