import { Readable } from 'node:stream';
import type { GuardedHttpClient } from './guarded-http';
import { ResponseTooLargeError } from './guarded-http';

/** The fetch signature libraries accept (the MCP SDK's `fetch` option). */
export type FetchFunction = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

function headerRecord(headers: HeadersInit | undefined): Record<string, string> {
  if (!headers) return {};
  return Object.fromEntries(new Headers(headers).entries());
}

async function bodyOf(body: BodyInit | null | undefined): Promise<string | Uint8Array | undefined> {
  if (body === null || body === undefined) return undefined;
  if (typeof body === 'string' || body instanceof Uint8Array) return body;
  return new Uint8Array(await new Response(body).arrayBuffer());
}

/** Counts bytes through a stream and errors once they pass `max`. */
function capped(max: number): TransformStream<Uint8Array, Uint8Array> {
  let size = 0;
  return new TransformStream({
    transform(chunk, controller) {
      size += chunk.byteLength;
      if (size > max) controller.error(new ResponseTooLargeError(max));
      else controller.enqueue(chunk);
    },
  });
}

/**
 * A `fetch` over the guarded client (SEC-03), for libraries that take one (MCP streamable HTTP): the same
 * address checks on every hop, the body streamed (server-sent events stay open) and capped in size.
 */
export function guardedFetch(client: GuardedHttpClient, maxResponseBytes: number): FetchFunction {
  return async (input, init = {}) => {
    const request = input instanceof Request ? input : null;
    const url = request ? request.url : input instanceof URL ? input.href : String(input);
    const { response } = await client.open({
      method: init.method ?? request?.method ?? 'GET',
      url,
      headers: { ...headerRecord(request?.headers), ...headerRecord(init.headers) },
      body: await bodyOf(init.body ?? (request ? await request.arrayBuffer() : undefined)),
      signal: init.signal ?? request?.signal ?? undefined,
      followRedirects: init.redirect !== 'manual' && init.redirect !== 'error',
    });
    const status = response.statusCode ?? 500;
    const headers = new Headers();
    for (const [k, v] of Object.entries(response.headers)) if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
    if (status === 204 || status === 304 || init.method === 'HEAD') {
      response.resume();
      return new Response(null, { status, headers });
    }
    const body = (Readable.toWeb(response) as ReadableStream<Uint8Array>).pipeThrough(capped(maxResponseBytes));
    return new Response(body, { status, headers });
  };
}
