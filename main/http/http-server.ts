import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import type { StudioHost } from '../host/studio-host';
import { registerMcpRoute } from '../mcp/mcp-http-route';
import { apiKeyCallerResolver } from './api-key-auth';
import type { CallerResolver } from './caller';
import { registerEventStream, type OpenStreams } from './event-stream';
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
export const CONTENT_SECURITY_POLICY = "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'self'; form-action 'self'";

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
  /** Receives unexpected errors (the client only ever sees INTERNAL). */
  onInternalError?: (error: unknown) => void;
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

function installGuards(app: FastifyInstance, options: HttpServerOptions, streams: OpenStreams): void {
  const localAccessOnly = options.localAccessOnly ?? true;
  if (localAccessOnly) {
    app.addHook('onRequest', async (request, reply) => {
      if (options.host.apiKeys.enabled) return; // every API request presents a key instead
      const refusal = checkLocalAccess({ method: request.method, headers: request.headers });
      if (refusal) return sendApiError(reply, refusal);
    });
  }
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'no-referrer');
    return payload;
  });
  app.addHook('preClose', async () => {
    for (const stream of streams) stream.end();
    streams.clear();
  });
  app.setErrorHandler((error, _request, reply) => {
    const data = apiErrorFromThrown(error);
    if (data.code === 'INTERNAL') options.onInternalError?.(error);
    return sendApiError(reply, data);
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
  const app = Fastify({ bodyLimit: options.bodyLimit ?? MAX_BODY_BYTES, logger: false, forceCloseConnections: true });
  const streams: OpenStreams = new Set();
  const resolveCaller = options.resolveCaller ?? apiKeyCallerResolver(options.host.apiKeys);
  installGuards(app, options, streams);
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
