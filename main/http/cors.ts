import type { FastifyInstance } from 'fastify';
import { isApiPath } from './renderer-static';

/** What a browser may send cross-origin to the API: the key header and JSON. */
const ALLOWED_HEADERS = 'authorization, x-api-key, content-type, accept, last-event-id';
const ALLOWED_METHODS = 'GET, POST, PUT, PATCH, DELETE';

export interface CorsOptions {
  /** Origins allowed to call the API from a page elsewhere (`yukta.http.cors-origins`). */
  origins: readonly string[];
  /** Whether API keys are required now: without them no origin is allowed (the SEC-01 local filter stays). */
  keysRequired(): boolean;
}

/**
 * Cross-origin access to the API (STU-08 Connect to server from a studio served elsewhere): only for the
 * listed origins, only while API keys are required (every call then carries a key that a foreign page does
 * not have; no cookies are used), and only for `/api/`. Preflights are answered before authentication.
 */
export function installCors(app: FastifyInstance, options: CorsOptions): void {
  const allowed = new Set(options.origins);
  if (allowed.size === 0) return;
  app.addHook('onRequest', async (request, reply) => {
    const origin = request.headers.origin;
    const path = request.url.split('?')[0] ?? '';
    if (!origin || !allowed.has(origin) || !isApiPath(path) || !options.keysRequired()) return;
    // On the raw response, so the event stream (written with writeHead) carries it too.
    reply.raw.setHeader('Access-Control-Allow-Origin', origin);
    reply.raw.setHeader('Vary', 'Origin');
    if (request.method === 'OPTIONS' && request.headers['access-control-request-method']) {
      return reply
        .code(204)
        .header('Access-Control-Allow-Methods', ALLOWED_METHODS)
        .header('Access-Control-Allow-Headers', ALLOWED_HEADERS)
        .header('Access-Control-Max-Age', '600')
        .send();
    }
  });
}
