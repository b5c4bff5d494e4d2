import type { ApiErrorData } from '../../shared/api/errors';

/** Host names a request may name while no API key is set (SEC-01); `*.localhost` is deliberately not included. */
export const LOOPBACK_HOSTNAMES: ReadonlySet<string> = new Set(['localhost', '127.0.0.1', '[::1]']);

/** The parts of a request the local-access filter reads. */
export interface LocalAccessRequest {
  method: string;
  headers: { host?: string | undefined; origin?: string | undefined };
}

/** Parses a Host header value (`name[:port]`) into a URL, or null when it is not a bare host. */
export function parseHostHeader(host: string | undefined): URL | null {
  if (!host) return null;
  let url: URL;
  try {
    url = new URL(`http://${host}`);
  } catch {
    return null;
  }
  // `evil@localhost`, `localhost/x` or `localhost?y` are not bare hosts, even if URL accepts them.
  if (url.username || url.password || url.pathname !== '/' || url.search || url.hash) return null;
  return url;
}

function isSameOrigin(origin: string, host: URL): boolean {
  let url: URL;
  try {
    url = new URL(origin);
  } catch {
    return false; // includes the opaque origin "null"
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.host === host.host;
}

/**
 * The SEC-01 filter while no API key is set: the Host header must name a loopback host (a DNS-rebinding
 * page names its own host), and a non-GET request carrying an Origin must come from the same origin
 * (a foreign page may POST to localhost, but the browser names it in Origin). Returns the refusal, or null.
 */
export function checkLocalAccess(request: LocalAccessRequest): ApiErrorData | null {
  const host = parseHostHeader(request.headers.host);
  if (!host || !LOOPBACK_HOSTNAMES.has(host.hostname)) {
    return { code: 'FORBIDDEN', message: 'requests must name a loopback host (localhost, 127.0.0.1 or [::1]) while no API key is set' };
  }
  const safeMethod = request.method === 'GET' || request.method === 'HEAD';
  const origin = request.headers.origin;
  if (!safeMethod && origin !== undefined && !isSameOrigin(origin, host)) {
    return { code: 'FORBIDDEN', message: `cross-origin ${request.method} refused (Origin ${origin} is not ${host.host})` };
  }
  return null;
}
