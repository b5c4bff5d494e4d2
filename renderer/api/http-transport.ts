import { EVENTS_HTTP_PATH, EVENTS_TICKET_HTTP_PATH, EVENTS_TICKET_PARAM, isOperationName, STUDIO_API } from '../../shared/api/contract';
import { ApiErrorData, type ApiResult } from '../../shared/api/errors';
import { toHttpRequest } from '../../shared/api/http-routes';
import type { StudioTransport } from '../../shared/api/transport';
import { matchesFilter, type EventFilter } from '../../shared/events/events';
import type { Credentials } from './credentials';
import { parseEventBatch } from './event-batch';

/** The parts of EventSource the transport uses, so tests can pass a fake. */
export interface EventSourceLike {
  addEventListener(type: string, listener: (event: MessageEvent) => void): void;
  close(): void;
  /** 2 (CLOSED) once the browser gave up on the stream, e.g. after a 401. */
  readonly readyState?: number;
}

export interface HttpTransportOptions {
  /** Server root; '' means the page's own origin (the server serves the renderer). */
  baseUrl?: string;
  fetch?: typeof fetch;
  createEventSource?: (url: string) => EventSourceLike;
  /** Sent with every request (a team server's `Authorization: Bearer <key>`, STU-08). */
  headers?: Readonly<Record<string, string>>;
  /** The API key to present (SEC-01): `Authorization: Bearer` on calls, a single-use ticket for the event stream. */
  credentials?: Credentials;
  /** Wait before opening the stream again after it closed (1 s). */
  reopenDelayMs?: number;
}

const CLOSED = 2;

/** StudioTransport over REST (one route per operation) and SSE (`event: batch`, data = JSON array). */
export function createHttpTransport(options: HttpTransportOptions = {}): StudioTransport {
  const baseUrl = options.baseUrl ?? '';
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const openEvents = options.createEventSource ?? ((url: string) => new EventSource(url));
  const credentials = options.credentials ?? null;
  const authorization = (): Record<string, string> => {
    const key = credentials?.key() ?? null;
    return key === null ? {} : { authorization: `Bearer ${key}` };
  };
  /** The stream's URL: as it is without a key (opened at once), with a fresh ticket with one. */
  const streamUrl = (url: string): string | Promise<string | null> => {
    if (credentials === null || credentials.key() === null) return url;
    return fetchTicket(doFetch, baseUrl, authorization(), credentials).then((ticket) =>
      ticket === null ? null : `${url}${url.includes('?') ? '&' : '?'}${EVENTS_TICKET_PARAM}=${encodeURIComponent(ticket)}`,
    );
  };

  return {
    async invoke(operation, input) {
      if (!isOperationName(operation)) return failure('UNKNOWN_OPERATION', `unknown operation "${operation}"`);
      // Apply the contract's defaults (e.g. session) so path parameters are filled.
      const parsed = STUDIO_API[operation].input.safeParse(input ?? {});
      const body = (parsed.success ? parsed.data : (input ?? {})) as Record<string, unknown>;
      let request;
      try {
        request = toHttpRequest(operation, body);
      } catch (error) {
        return failure('BAD_INPUT', error instanceof Error ? error.message : String(error));
      }
      let response: Response;
      try {
        response = await doFetch(baseUrl + request.url, {
          method: request.method,
          headers: { ...(request.body ? { 'content-type': 'application/json' } : {}), accept: 'application/json', ...options.headers, ...authorization() },
          body: request.body ? JSON.stringify(request.body) : undefined,
        });
      } catch (error) {
        return failure('UNAVAILABLE', `the studio server is not reachable (${error instanceof Error ? error.message : String(error)})`);
      }
      const result = await readResponse(response);
      if (!result.ok && result.error.code === 'UNAUTHORIZED') credentials?.rejected(result.error.message);
      return result;
    },

    subscribe(filter, listener) {
      const onBatch = (message: MessageEvent): void => {
        let raw: unknown;
        try {
          raw = JSON.parse(String(message.data));
        } catch {
          return;
        }
        // The server filters too; filtering again keeps the contract whatever its query parsing.
        const events = parseEventBatch(raw).filter((e) => matchesFilter(e, filter));
        if (events.length) listener(events);
      };
      const stream = new ReopeningStream(() => streamUrl(baseUrl + eventStreamUrl(filter)), openEvents, onBatch, options.reopenDelayMs ?? 1000);
      return () => stream.close();
    },
  };
}

/**
 * The event stream of one subscription. With a key, each connection needs a fresh single-use ticket, so
 * when the browser gives a stream up (its own reconnect met a used ticket, or the server went away) this
 * opens a new one with a new ticket after a short wait. Without a key the browser's reconnect does it.
 */
class ReopeningStream {
  private source: EventSourceLike | null = null;
  private timer: ReturnType<typeof setTimeout> | null = null;
  private closed = false;

  constructor(
    private readonly url: () => string | Promise<string | null>,
    private readonly openEvents: (url: string) => EventSourceLike,
    private readonly onBatch: (message: MessageEvent) => void,
    private readonly reopenDelayMs: number,
  ) {
    this.open();
  }

  private open(): void {
    const url = this.url();
    if (typeof url === 'string') return this.connect(url);
    url.then(
      (ready) => (ready === null ? this.reopenLater() : this.connect(ready)),
      () => this.reopenLater(),
    );
  }

  private connect(url: string): void {
    if (this.closed) return;
    const source = (this.source = this.openEvents(url));
    source.addEventListener('batch', this.onBatch);
    source.addEventListener('error', () => {
      if (source.readyState !== CLOSED || this.closed) return;
      source.close();
      this.reopenLater();
    });
  }

  private reopenLater(): void {
    if (this.timer !== null || this.closed) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.open();
    }, this.reopenDelayMs);
  }

  close(): void {
    this.closed = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.source?.close();
  }
}

/** A single-use ticket for the event stream (POST with the key), or null when none was given. */
async function fetchTicket(doFetch: typeof fetch, baseUrl: string, headers: Record<string, string>, credentials: Credentials): Promise<string | null> {
  const response = await doFetch(baseUrl + EVENTS_TICKET_HTTP_PATH, { method: 'POST', headers: { accept: 'application/json', ...headers } });
  const result = await readResponse(response);
  if (!result.ok) {
    if (result.error.code === 'UNAUTHORIZED') credentials.rejected(result.error.message);
    return null;
  }
  const ticket = (result.value as { ticket?: unknown } | null)?.ticket;
  return typeof ticket === 'string' ? ticket : null;
}

/** `GET /api/events/stream?executionId=&type=` with repeated `type` keys. */
export function eventStreamUrl(filter: EventFilter): string {
  const query = new URLSearchParams();
  if (filter.executionId) query.set('executionId', filter.executionId);
  for (const type of filter.type ?? []) query.append('type', type);
  const qs = query.toString();
  return qs ? `${EVENTS_HTTP_PATH}?${qs}` : EVENTS_HTTP_PATH;
}

async function readResponse(response: Response): Promise<ApiResult<unknown>> {
  const text = await response.text();
  let json: unknown = undefined;
  if (text) {
    try {
      json = JSON.parse(text);
    } catch {
      if (response.ok) return failure('INTERNAL', `the server sent a non-JSON answer (HTTP ${response.status})`);
    }
  }
  if (response.ok) return { ok: true, value: json };
  const error = ApiErrorData.safeParse((json as { error?: unknown } | undefined)?.error);
  if (error.success) return { ok: false, error: error.data };
  return failure(response.status === 404 ? 'NOT_FOUND' : 'INTERNAL', `the server answered HTTP ${response.status} ${response.statusText}`.trim());
}

function failure(code: ApiErrorData['code'], message: string): ApiResult<unknown> {
  return { ok: false, error: { code, message } };
}
