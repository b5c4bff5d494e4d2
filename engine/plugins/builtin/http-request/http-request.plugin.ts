import { z } from 'zod';
import { DEFAULT_PORT } from '../../../../shared/workflow/engine-policy.schema';
import { BadInputError } from '../../../runtime/errors';
import type { Message } from '../../../runtime/message';
import { definePlugin, type PluginContext } from '../../contract';
import { renderDeep, renderTemplate, type TemplateScope } from '../../expressions/template';
import { withDeadline } from '../shared/deadline';

/** Ports of `routeByStatus`: one per status class. */
export const STATUS_PORTS = ['2xx', '3xx', '4xx', '5xx'] as const;
const MAX_TIMEOUT_MS = 300_000;
/** ENG-05: the idle timeout is the request timeout plus this. */
const IDLE_MARGIN_MS = 5_000;

const HttpRequestConfig = z.strictObject({
  method: z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD']).default('GET'),
  /** A template, e.g. `https://api.example.com/orders/${payload.id}`; `decrypted:<name>` is allowed. */
  url: z.string().min(1).max(8192),
  /** Header values are templates; `decrypted:<name>` in them is replaced by the secret (e.g. `Bearer decrypted:api`). */
  headers: z.record(z.string().regex(/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/, 'a header name'), z.string().max(8192)).default({}),
  /** JSON body (strings inside are templates) or, with `bodyType: text`, a text template. */
  body: z.unknown().optional(),
  bodyType: z.enum(['json', 'text']).default('json'),
  /** `auto` parses JSON when the response says it is JSON. */
  responseType: z.enum(['auto', 'json', 'text']).default('auto'),
  timeoutMs: z.number().int().min(1).max(MAX_TIMEOUT_MS).default(30_000),
  followRedirects: z.boolean().default(true),
  /** Send each response to the port of its status class (`2xx`…`5xx`) instead of failing on 4xx/5xx. */
  routeByStatus: z.boolean().default(false),
});
type HttpRequestConfig = z.infer<typeof HttpRequestConfig>;

/** A 4xx/5xx answer without `routeByStatus`: 408, 425, 429 and 5xx are retryable, other 4xx are bad input. */
export class HttpStatusError extends Error {
  override readonly name = 'HttpStatusError';
  readonly code: string;
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.code = `HTTP_${status}`;
  }
}

function scopeOf(message: Message, ctx: PluginContext, withSecrets: boolean): TemplateScope {
  return {
    payload: message.payload,
    metadata: message.metadata,
    context: { executionId: ctx.executionId, nodeId: ctx.nodeId, workflowId: ctx.workflowId, session: ctx.session },
    variables: ctx.services.variables,
    ...(withSecrets ? { secrets: ctx.services.secrets } : {}),
  };
}

function requestBody(config: HttpRequestConfig, scope: TemplateScope): { body?: string; contentType?: string } {
  if (config.body === undefined || config.method === 'GET' || config.method === 'HEAD') return {};
  if (config.bodyType === 'text') {
    if (typeof config.body !== 'string') throw new BadInputError('body: with bodyType text the body must be a string template');
    return { body: String(renderTemplate(config.body, scope)), contentType: 'text/plain; charset=utf-8' };
  }
  return { body: JSON.stringify(renderDeep(config.body, scope)), contentType: 'application/json' };
}

function parseBody(body: Buffer, headers: Record<string, string>, type: HttpRequestConfig['responseType']): unknown {
  const text = body.toString('utf8');
  const json = type === 'json' || (type === 'auto' && /[/+]json\b/i.test(headers['content-type'] ?? ''));
  if (!json || text.length === 0) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    if (type === 'json') throw new BadInputError('the response is not valid JSON (responseType json)', 'RESPONSE_NOT_JSON');
    return text;
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return 'an invalid URL';
  }
}

function statusPort(status: number): string {
  return `${Math.min(5, Math.max(2, Math.floor(status / 100)))}xx`;
}

/**
 * HTTP_REQUEST (EXT-01, SEC-03): method, URL and headers templated, JSON or text body, response parsed by
 * content type; the request goes through the engine's guarded client (no loopback, private, link-local or
 * metadata address unless `yukta.http.allow-private`; size and redirect caps). Secrets appear only in the
 * outgoing request, never in the output message.
 */
export const httpRequestPlugin = definePlugin({
  type: 'HTTP_REQUEST',
  kind: 'processor',
  title: 'HTTP request',
  description: 'Calls an HTTP API; 4xx/5xx fail (or route by status class).',
  configSchema: HttpRequestConfig,
  defaultConfig: { method: 'GET', url: 'https://example.com/', headers: {}, timeoutMs: 30_000 },
  outputs: [DEFAULT_PORT, ...STATUS_PORTS],
  // The status ports appear on the canvas (and take edges) only with routeByStatus on.
  outputsWhen: { flag: 'routeByStatus', ports: STATUS_PORTS },
  defaultTimeoutMs: (config) => config.timeoutMs + IDLE_MARGIN_MS,
  async process(message, config, ctx) {
    const scope = scopeOf(message, ctx, true);
    const url = String(renderTemplate(config.url, scope));
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(config.headers)) headers[name.toLowerCase()] = String(renderTemplate(value, scope));
    const { body, contentType } = requestBody(config, scope);
    if (contentType && !headers['content-type']) headers['content-type'] = contentType;
    headers['user-agent'] ??= 'YuktaStudio';
    const response = await withDeadline(ctx, config.timeoutMs, `${config.method} ${hostOf(url)}`, (signal) =>
      ctx.services.http.request({ method: config.method, url, headers, body, signal, followRedirects: config.followRedirects }),
    );
    // A server that echoes a secret back must not put it into the message (which may be recorded to disk).
    const payload = ctx.services.secrets.redactor.redact({
      status: response.status,
      headers: response.headers,
      body: parseBody(response.body, response.headers, config.responseType),
      url: response.url,
    });
    const metadata = { ...message.metadata, 'http.status': String(response.status) };
    if (config.routeByStatus) return [{ payload, metadata, port: statusPort(response.status) }];
    if (response.status >= 400) {
      const error = new HttpStatusError(response.status, `${config.method} ${response.url} answered ${response.status}`);
      if (response.status < 500 && ![408, 425, 429].includes(response.status)) throw new BadInputError(error.message, error.code);
      throw error;
    }
    return [{ payload, metadata }];
  },
});
