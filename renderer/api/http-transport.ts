import { EVENTS_HTTP_PATH, isOperationName, STUDIO_API } from '../../shared/api/contract';
import { ApiErrorData, type ApiResult } from '../../shared/api/errors';
import { toHttpRequest } from '../../shared/api/http-routes';
import type { StudioTransport } from '../../shared/api/transport';
import { matchesFilter, type EventFilter } from '../../shared/events/events';
import { parseEventBatch } from './event-batch';

/** The parts of EventSource the transport uses, so tests can pass a fake. */
export interface EventSourceLike {
  addEventListener(type: string, listener: (event: MessageEvent) => void): void;
  close(): void;
}

export interface HttpTransportOptions {
  /** Server root; '' means the page's own origin (the server serves the renderer). */
  baseUrl?: string;
  fetch?: typeof fetch;
  createEventSource?: (url: string) => EventSourceLike;
  /** Sent with every request (a team server's `Authorization: Bearer <key>`, STU-08). */
  headers?: Readonly<Record<string, string>>;
}

/** StudioTransport over REST (one route per operation) and SSE (`event: batch`, data = JSON array). */
export function createHttpTransport(options: HttpTransportOptions = {}): StudioTransport {
  const baseUrl = options.baseUrl ?? '';
  const doFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const openEvents = options.createEventSource ?? ((url: string) => new EventSource(url));

  return {
    async invoke(operation, input) {
      if (!isOperationName(operation)) return failure('UNKNOWN_OPERATION', `unknown operation "${operation}"`);
      // Apply the contract's defaults (e.g. session) so path parameters are filled.
      const parsed = STUDIO_API[operation].input.safeParse(input ?? {});
      const body = (parsed.success ? parsed.data : input ?? {}) as Record<string, unknown>;
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
          headers: { ...options.headers, ...(request.body ? { 'content-type': 'application/json', accept: 'application/json' } : { accept: 'application/json' }) },
          body: request.body ? JSON.stringify(request.body) : undefined,
        });
      } catch (error) {
        return failure('UNAVAILABLE', `the studio server is not reachable (${error instanceof Error ? error.message : String(error)})`);
      }
      return readResponse(response);
    },

    subscribe(filter, listener) {
      const source = openEvents(baseUrl + eventStreamUrl(filter));
      source.addEventListener('batch', (message) => {
        let raw: unknown;
        try {
          raw = JSON.parse(String(message.data));
        } catch {
          return;
        }
        // The server filters too; filtering again keeps the contract whatever its query parsing.
        const events = parseEventBatch(raw).filter((e) => matchesFilter(e, filter));
        if (events.length) listener(events);
      });
      return () => source.close();
    },
  };
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
