import type { ServerResponse } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { EVENTS_HTTP_PATH, EVENTS_TICKET_HTTP_PATH, EVENTS_TICKET_PARAM } from '../../shared/api/contract';
import { StudioApiError } from '../../shared/api/errors';
import { roleAllows, type Caller } from '../../shared/api/roles';
import { EventFilter, type StudioEvent } from '../../shared/events/events';
import { joinPath } from '../../shared/workflow/validation-issue';
import type { StudioHost } from '../host/studio-host';
import type { CallerResolver } from './caller';
import { apiErrorFromThrown, sendApiError, sendApiValue } from './http-errors';
import { StreamTickets } from './stream-tickets';

/** A comment line every this often keeps proxies and idle timeouts from closing a quiet stream. */
export const HEARTBEAT_MS = 15_000;
/** A client that lets this much output pile up unread is dropped (it can reconnect) instead of growing memory. */
export const MAX_BUFFERED_BYTES = 8 * 1024 * 1024;

export interface EventStreamOptions {
  heartbeatMs?: number;
  /** The stream's tickets (a clock for tests); one store per server by default. */
  tickets?: StreamTickets;
}

/** The stream's caller: the holder of a ticket (used up now), else whoever the request's key names. */
function streamCaller(request: FastifyRequest, resolveCaller: CallerResolver, tickets: StreamTickets): Caller {
  const ticket = (request.query as Record<string, unknown>)[EVENTS_TICKET_PARAM];
  if (ticket === undefined) return resolveCaller(request);
  const caller = typeof ticket === 'string' ? tickets.redeem(ticket) : null;
  if (caller === null)
    throw new StudioApiError(
      'UNAUTHORIZED',
      `the event stream ticket is unknown, used or expired: POST ${EVENTS_TICKET_HTTP_PATH} for a new one`,
      EVENTS_TICKET_PARAM,
    );
  return caller;
}

/** `POST /api/events/ticket`: a single-use ticket for the caller, to open the stream without a key in its URL. */
function registerTicketRoute(app: FastifyInstance, host: StudioHost, resolveCaller: CallerResolver, tickets: StreamTickets): void {
  app.post(EVENTS_TICKET_HTTP_PATH, async (request, reply) => {
    try {
      const caller = resolveCaller(request);
      if (!roleAllows(caller.role, 'VIEWER')) throw new StudioApiError('FORBIDDEN', `the event stream needs role VIEWER; ${caller.actor} has ${caller.role}`);
      return sendApiValue(reply.header('Cache-Control', 'no-store'), tickets.issue(caller));
    } catch (error) {
      return sendApiError(
        reply,
        apiErrorFromThrown(error, (e, id) => host.reportInternalError(e, id)),
      );
    }
  });
}

/** Reads the stream's filter from the query: `executionId`, `type` repeated or comma-separated. */
export function eventFilterFromQuery(query: Record<string, string | string[] | undefined>): EventFilter {
  const raw: Record<string, unknown> = {};
  if (query.executionId !== undefined) raw.executionId = query.executionId;
  if (query.type !== undefined) {
    const values = Array.isArray(query.type) ? query.type : [query.type];
    raw.type = values
      .flatMap((v) => v.split(','))
      .map((v) => v.trim())
      .filter((v) => v.length > 0);
  }
  const parsed = EventFilter.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = joinPath(issue.path);
    throw new StudioApiError('BAD_INPUT', `${path || 'filter'}: ${issue.message}`, path || undefined);
  }
  return parsed.data;
}

/** Formats one batch as an SSE message; `id` is the last event's feed position. */
export function sseBatchMessage(batch: StudioEvent[]): string {
  const last = batch[batch.length - 1];
  const id = last ? `id: ${last.seq}\n` : '';
  return `${id}event: batch\ndata: ${JSON.stringify(batch)}\n\n`;
}

/** A key limited to sessions (SEC-01) sees only the events of their runs. */
function sessionFilter(host: StudioHost, sessions: readonly string[]): (event: StudioEvent) => boolean {
  return (event) => {
    const session = event.type === 'EXECUTION_STATUS' ? event.session : host.runSession(event.executionId);
    return session !== null && sessions.includes(session);
  };
}

/** Open streams, so closing the server can end them (an open stream would keep it from closing). */
export type OpenStreams = Set<ServerResponse>;

function openStream(raw: ServerResponse, streams: OpenStreams): void {
  raw.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache',
    'X-Accel-Buffering': 'no',
    Connection: 'keep-alive',
  });
  raw.write(': connected\n\n'); // sends the headers now, so the client sees the stream open
  streams.add(raw);
}

/**
 * `GET /api/events/stream`: the host's events as Server-Sent Events, one `event: batch` message per
 * batch, never one per event. The subscription ends when the client goes away. Authenticated by the
 * request's key, or by a single-use `?ticket=` from `POST /api/events/ticket` (browsers).
 */
export function registerEventStream(
  app: FastifyInstance,
  host: StudioHost,
  resolveCaller: CallerResolver,
  streams: OpenStreams,
  options: EventStreamOptions = {},
): void {
  const heartbeatMs = options.heartbeatMs ?? HEARTBEAT_MS;
  const tickets = options.tickets ?? new StreamTickets();
  registerTicketRoute(app, host, resolveCaller, tickets);
  app.get(EVENTS_HTTP_PATH, async (request: FastifyRequest, reply) => {
    let filter: EventFilter;
    let caller: Caller;
    try {
      caller = streamCaller(request, resolveCaller, tickets);
      if (!roleAllows(caller.role, 'VIEWER')) throw new StudioApiError('FORBIDDEN', `the event stream needs role VIEWER; ${caller.actor} has ${caller.role}`);
      filter = eventFilterFromQuery(request.query as Record<string, string | string[]>);
    } catch (error) {
      return sendApiError(
        reply,
        apiErrorFromThrown(error, (e, id) => host.reportInternalError(e, id)),
      );
    }
    reply.hijack();
    const raw = reply.raw;
    openStream(raw, streams);
    const write = (text: string): void => {
      if (raw.writableEnded || raw.destroyed) return;
      if (raw.writableLength > MAX_BUFFERED_BYTES) raw.destroy();
      else raw.write(text);
    };
    const scoped = caller.sessions ? sessionFilter(host, caller.sessions) : null;
    const unsubscribe = host.subscribe(filter, (batch) => {
      const events = scoped ? batch.filter(scoped) : batch;
      if (events.length) write(sseBatchMessage(events));
    });
    const heartbeat = setInterval(() => write(': heartbeat\n\n'), heartbeatMs);
    heartbeat.unref();
    raw.once('close', () => {
      clearInterval(heartbeat);
      unsubscribe();
      streams.delete(raw);
    });
  });
}
