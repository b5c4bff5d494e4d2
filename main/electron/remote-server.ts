/**
 * Connect to server in the desktop app (STU-08): the team server the studio talks to instead of the local
 * host, its API key kept encrypted with the OS keychain (safeStorage), the first request that checks both,
 * and the forwarding of `app://studio/remote/api/…` to the server. The renderer uses its ordinary HTTP
 * transport on that same-origin address, so its CSP stays `connect-src 'self'` and it never holds the key.
 */
import { join } from 'node:path';
import { z } from 'zod';
import type { ConnectOutcome } from '../../shared/desktop/desktop-bridge';
import { REMOTE_PROXY_PATH } from '../../shared/desktop/desktop-bridge';
import { apiKeyProblem, parseServerUrl, PROBE_PATH, probeOutcome } from '../../shared/desktop/server-address';
import { readJsonFile, writeJsonFileAtomic } from '../host/json-file';
import type { StringEncryptor } from '../host/secret-store';

export interface RemoteTarget {
  url: string;
  apiKey: string;
}

export const REMOTE_SERVER_FILE = 'remote-server.json';
const StoredTarget = z.object({ url: z.string(), key: z.string() });

type Fetch = typeof fetch;

/**
 * The chosen server in `<userData>/remote-server.json` (mode 0600): the URL, and the key as safeStorage
 * ciphertext. Without the OS keychain nothing is stored (the key would sit on disk as plain text).
 */
export class RemoteServerStore {
  private readonly file: string;

  constructor(
    userData: string,
    private readonly encryptor: StringEncryptor,
  ) {
    this.file = join(userData, REMOTE_SERVER_FILE);
  }

  load(): RemoteTarget | null {
    let raw: unknown;
    try {
      raw = readJsonFile(this.file);
    } catch {
      return null;
    }
    const parsed = StoredTarget.safeParse(raw);
    if (!parsed.success || !this.encryptor.isEncryptionAvailable()) return null;
    const url = parseServerUrl(parsed.data.url);
    if (!url.ok) return null;
    try {
      return { url: url.url, apiKey: this.encryptor.decryptString(Buffer.from(parsed.data.key, 'base64')) };
    } catch {
      return null; // another user's or machine's keychain: ask again
    }
  }

  save(target: RemoteTarget): void {
    if (!this.encryptor.isEncryptionAvailable()) throw new Error('the OS keychain is not available, so the API key cannot be kept encrypted');
    writeJsonFileAtomic(this.file, { url: target.url, key: this.encryptor.encryptString(target.apiKey).toString('base64') });
  }

  clear(): void {
    writeJsonFileAtomic(this.file, {});
  }
}

/** Probe timeout: a server that does not answer within this is "not reachable" (10 s). */
const PROBE_TIMEOUT_MS = 10_000;

/** Checks the typed address and key, then asks the server for its node types with the key. */
export async function checkServer(urlText: string, apiKey: string, doFetch: Fetch = fetch): Promise<{ outcome: ConnectOutcome; target?: RemoteTarget }> {
  const url = parseServerUrl(urlText);
  if (!url.ok) return { outcome: { ok: false, field: 'url', message: url.message } };
  const keyProblem = apiKeyProblem(apiKey);
  if (keyProblem) return { outcome: { ok: false, field: 'apiKey', message: keyProblem } };
  let answer: { status: number; json: unknown } | { unreachable: string };
  try {
    const response = await doFetch(url.url + PROBE_PATH, {
      headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json' },
      redirect: 'error',
      signal: AbortSignal.timeout(PROBE_TIMEOUT_MS),
    });
    answer = { status: response.status, json: await response.json().catch(() => null) };
  } catch (error) {
    answer = { unreachable: reasonOf(error) };
  }
  const outcome = probeOutcome(url.url, answer);
  return outcome.ok ? { outcome, target: { url: url.url, apiKey } } : { outcome };
}

function reasonOf(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  if (cause && typeof cause.code === 'string') return cause.code;
  if (error instanceof Error && error.name === 'TimeoutError') return `no answer within ${PROBE_TIMEOUT_MS / 1000} s`;
  return error instanceof Error ? error.message : String(error);
}

/** Request headers passed on to the server; everything else (cookies, origin) stays behind. */
const FORWARDED_HEADERS = ['accept', 'content-type', 'last-event-id'];
const RETURNED_HEADERS = ['content-type', 'cache-control'];

/**
 * Forwards one `app://studio/remote/api/…` request to the server with the key; anything else under
 * `/remote` is 404. Responses stream through (the event stream too); a server that cannot be reached
 * answers 502 in the API's error shape, so the transport reports it as UNAVAILABLE.
 */
export async function forwardToServer(target: RemoteTarget | null, request: Request, doFetch: Fetch = fetch): Promise<Response> {
  const url = new URL(request.url);
  const rest = url.pathname.slice(REMOTE_PROXY_PATH.length);
  if (!target || !url.pathname.startsWith(`${REMOTE_PROXY_PATH}/api/`) || rest.includes('..')) {
    return errorResponse(404, 'NOT_FOUND', target ? `nothing at ${url.pathname}` : 'the studio is not connected to a server');
  }
  const headers = new Headers({ authorization: `Bearer ${target.apiKey}` });
  for (const name of FORWARDED_HEADERS) {
    const value = request.headers.get(name);
    if (value !== null) headers.set(name, value);
  }
  const hasBody = request.method !== 'GET' && request.method !== 'HEAD';
  let upstream: Response;
  try {
    upstream = await doFetch(target.url + rest + url.search, {
      method: request.method,
      headers,
      body: hasBody ? await request.arrayBuffer() : undefined,
      redirect: 'error',
    });
  } catch (error) {
    return errorResponse(502, 'UNAVAILABLE', `${target.url} is not reachable (${reasonOf(error)})`);
  }
  const returned = new Headers();
  for (const name of RETURNED_HEADERS) {
    const value = upstream.headers.get(name);
    if (value !== null) returned.set(name, value);
  }
  return new Response(upstream.body, { status: upstream.status, headers: returned });
}

function errorResponse(status: number, code: string, message: string): Response {
  return new Response(JSON.stringify({ error: { code, message } }), { status, headers: { 'content-type': 'application/json' } });
}
