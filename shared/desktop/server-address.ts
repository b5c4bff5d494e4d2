import type { ConnectOutcome } from './desktop-bridge';

/**
 * Connect to server (STU-08): the rules both the desktop main and the browser studio apply to a team
 * server's address and to the answer of the first request sent to it. Kept free of runtime imports (the
 * preload bundles the bridge types beside it).
 */

/** Longest API key accepted in the dialog (keys are 16+ characters; anything this long is pasted junk). */
export const MAX_API_KEY_LENGTH = 512;

/**
 * The server's base URL from what the user typed: http(s) only, no user:password@, no query or fragment;
 * a path is kept (a server behind a reverse proxy at `/yukta`), without its trailing slash.
 */
export function parseServerUrl(text: string): { ok: true; url: string } | { ok: false; message: string } {
  const trimmed = text.trim();
  if (!trimmed) return { ok: false, message: 'Type the server address, e.g. http://team-server.example:4310' };
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return { ok: false, message: `"${trimmed.slice(0, 80)}" is not a URL (e.g. http://team-server.example:4310)` };
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return { ok: false, message: `only http:// and https:// servers can be reached, not ${url.protocol}` };
  if (url.username || url.password) return { ok: false, message: 'put the API key in its own field, not in the address' };
  if (url.search || url.hash) return { ok: false, message: 'the address takes no ?query or #fragment' };
  return { ok: true, url: `${url.origin}${url.pathname.replace(/\/+$/, '')}` };
}

/** Checks the key field: present, one line, not absurdly long. */
export function apiKeyProblem(key: string): string | null {
  if (!key) return 'Type the API key the server gave you';
  if (key.length > MAX_API_KEY_LENGTH) return `an API key is at most ${MAX_API_KEY_LENGTH} characters`;
  if (/\s/.test(key)) return 'an API key has no spaces or line breaks';
  return null;
}

/** The request that checks a server: its node types (any role may read them; no session needed). */
export const PROBE_PATH = '/api/node-types';

/**
 * What the answer to the probe means for the dialog: unreachable, a refused key (401/403), not a Yukta
 * server (anything but a JSON list), or connected.
 */
export function probeOutcome(url: string, answer: { status: number; json: unknown } | { unreachable: string }): ConnectOutcome {
  if ('unreachable' in answer) return { ok: false, field: 'url', message: `${url} is not reachable (${answer.unreachable})` };
  if (answer.status === 401 || answer.status === 403) {
    const said = (answer.json as { error?: { message?: unknown } } | null)?.error?.message;
    return { ok: false, field: 'apiKey', message: `the server refused the API key${typeof said === 'string' ? `: ${said}` : ''}` };
  }
  if (answer.status < 200 || answer.status > 299 || !Array.isArray(answer.json))
    return { ok: false, field: 'url', message: `${url} answered HTTP ${answer.status}, but not as a Yukta server` };
  return { ok: true };
}

/**
 * A browser studio on a team server is opened as `…/?server=<origin>` (STU-08): the page it is served from
 * then allows exactly that origin in its CSP (`connect-src 'self' <origin>`), which a page can never widen
 * itself. The value must be a bare http(s) origin.
 */
export const SERVER_QUERY = 'server';

export function serverOriginParam(search: string): string | null {
  const value = new URLSearchParams(search).get(SERVER_QUERY);
  if (!value) return null;
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === value ? value : null;
  } catch {
    return null;
  }
}
