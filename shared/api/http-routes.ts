import { STUDIO_API, type OperationName } from './contract';

/** A REST request for one operation, as the HTTP transport sends it. */
export interface HttpRequestSpec {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path with query string, relative to the server root. */
  url: string;
  /** JSON body for non-GET methods. */
  body?: Record<string, unknown>;
}

const PARAM = /:([A-Za-z][A-Za-z0-9]*)/g;

/** Names of the `:param` segments of an operation's path. */
export function pathParams(operation: OperationName): string[] {
  return [...STUDIO_API[operation].http.path.matchAll(PARAM)].map((m) => m[1]!);
}

/**
 * Maps an operation's input onto its REST route: `:name` segments take the fields of that name
 * (URL-encoded); GET sends the other fields as query parameters (arrays repeat the key), other methods as a
 * JSON body. `inputFromHttp` is the inverse on the server.
 */
export function toHttpRequest(operation: OperationName, input: Record<string, unknown>): HttpRequestSpec {
  const { method, path } = STUDIO_API[operation].http;
  const rest: Record<string, unknown> = { ...input };
  const filled = path.replace(PARAM, (_m, name: string) => {
    const value = rest[name];
    delete rest[name];
    if (value === undefined || value === null) throw new Error(`${operation}: path parameter "${name}" is missing`);
    return encodeURIComponent(String(value));
  });
  if (method !== 'GET') return { method, url: filled, body: rest };
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(rest)) {
    if (value === undefined || value === null) continue;
    for (const v of Array.isArray(value) ? value : [value]) query.append(key, typeof v === 'object' ? JSON.stringify(v) : String(v));
  }
  const qs = query.toString();
  return { method, url: qs ? `${filled}?${qs}` : filled };
}

/** Rebuilds an operation's input from a REST request (path params win over query and body fields). */
export function inputFromHttp(
  operation: OperationName,
  params: Record<string, string>,
  query: Record<string, string | string[]>,
  body: unknown,
): Record<string, unknown> {
  const { method } = STUDIO_API[operation].http;
  const base: Record<string, unknown> =
    method === 'GET' ? { ...query } : body && typeof body === 'object' && !Array.isArray(body) ? { ...(body as Record<string, unknown>) } : {};
  for (const name of pathParams(operation)) {
    const value = params[name];
    if (value !== undefined) base[name] = value;
  }
  return base;
}
