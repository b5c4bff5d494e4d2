import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { Agent } from 'node:http';
import { BadInputError } from '../runtime/errors';
import { checkRequestUrl, guardedAgents, refusalOf, type NetworkPolicy } from './network-guard';

export interface GuardedRequest {
  method: string;
  url: string;
  headers?: Readonly<Record<string, string>>;
  body?: string | Uint8Array | undefined;
  /** Aborts the request (timeout, cancel, KILL). */
  signal?: AbortSignal | undefined;
  /** Follow 301/302/303/307/308 (each target checked again); false answers the redirect itself. */
  followRedirects?: boolean;
}

export interface GuardedResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
  /** The URL that answered (after redirects). */
  url: string;
  redirects: number;
}

/** A response body over `yukta.http.max-response-bytes`. */
export class ResponseTooLargeError extends BadInputError {
  constructor(max: number) {
    super(`the response is larger than ${max} bytes (yukta.http.max-response-bytes)`, 'RESPONSE_TOO_LARGE');
  }
}

/** More redirects than `yukta.http.max-redirects`. */
export class TooManyRedirectsError extends BadInputError {
  constructor(max: number) {
    super(`more than ${max} redirects (yukta.http.max-redirects)`, 'TOO_MANY_REDIRECTS');
  }
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);
/** Headers that carry credentials: dropped when a redirect leaves the origin they were meant for. */
const CREDENTIAL_HEADERS = ['authorization', 'proxy-authorization', 'cookie', 'x-api-key'];

/** One connection attempt's answer before its body is read. */
type Opened = { response: IncomingMessage; url: URL };

/**
 * HTTP for plugins under the network policy (SEC-03): only http(s); every hop's address checked after DNS
 * resolution (also each redirect target); redirects and response size capped; credentials not forwarded
 * to another origin. One instance per engine: the agents hold the policy.
 */
export class GuardedHttpClient {
  private readonly agents: { http: Agent; https: Agent };

  constructor(
    private readonly policy: NetworkPolicy,
    private readonly limits: { maxResponseBytes: number; maxRedirects: number },
  ) {
    this.agents = guardedAgents(policy);
  }

  /** Sends the request and reads the whole body (capped). */
  async request(req: GuardedRequest): Promise<GuardedResponse> {
    const { response, url, redirects } = await this.open(req);
    const body = await readCapped(response, this.limits.maxResponseBytes, req.signal);
    return { status: response.statusCode ?? 0, headers: flatHeaders(response), body, url: url.href, redirects };
  }

  /** Sends the request and answers as soon as headers arrive; the body stays a stream (for SSE). */
  async open(req: GuardedRequest): Promise<Opened & { redirects: number }> {
    let url = checkRequestUrl(req.url);
    let method = req.method.toUpperCase();
    let body = req.body;
    let headers: Record<string, string> = { ...req.headers };
    for (let redirects = 0; ; redirects++) {
      const opened = await this.send(method, url, headers, body, req.signal);
      const status = opened.response.statusCode ?? 0;
      const location = opened.response.headers.location;
      if (req.followRedirects === false || !REDIRECTS.has(status) || !location) return { ...opened, redirects };
      opened.response.resume(); // drop the redirect's own body
      if (redirects >= this.limits.maxRedirects) throw new TooManyRedirectsError(this.limits.maxRedirects);
      const next = checkRequestUrl(new URL(location, url).href);
      if (next.origin !== url.origin) headers = withoutCredentials(headers);
      if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
        method = method === 'HEAD' ? 'HEAD' : 'GET';
        body = undefined;
        headers = Object.fromEntries(Object.entries(headers).filter(([k]) => !/^content-(type|length)$/i.test(k)));
      }
      url = next;
    }
  }

  private send(method: string, url: URL, headers: Record<string, string>, body: GuardedRequest['body'], signal: AbortSignal | undefined): Promise<Opened> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const secure = url.protocol === 'https:';
      const options = {
        method,
        headers: body === undefined ? headers : { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        agent: secure ? this.agents.https : this.agents.http,
        ...(this.policy.lookup ? { lookup: this.policy.lookup } : {}),
        ...(signal ? { signal } : {}),
      };
      const req = (secure ? httpsRequest : httpRequest)(url, options, (response) => resolve({ response, url }));
      req.on('error', (error) => reject(signal?.aborted ? signal.reason : refusalOf(error, url)));
      req.end(body);
    });
  }
}

function withoutCredentials(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !CREDENTIAL_HEADERS.includes(k.toLowerCase())));
}

function flatHeaders(response: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(response.headers)) if (v !== undefined) out[k] = Array.isArray(v) ? v.join(', ') : v;
  return out;
}

/** Reads a body, failing once it passes `max` bytes (the announced length is checked before reading). */
function readCapped(response: IncomingMessage, max: number, signal: AbortSignal | undefined): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const announced = Number(response.headers['content-length']);
    if (Number.isFinite(announced) && announced > max) {
      response.destroy();
      return reject(new ResponseTooLargeError(max));
    }
    const chunks: Buffer[] = [];
    let size = 0;
    response.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > max) {
        response.destroy();
        reject(new ResponseTooLargeError(max));
        return;
      }
      chunks.push(chunk);
    });
    response.on('end', () => resolve(Buffer.concat(chunks)));
    response.on('error', (error) => reject(signal?.aborted ? signal.reason : error));
    response.on('aborted', () => reject(signal?.aborted ? signal.reason : new Error('the connection closed before the response ended')));
  });
}
