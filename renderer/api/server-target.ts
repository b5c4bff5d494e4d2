import { createStudioClient, type StudioClient } from '../../shared/api/client';
import type { DesktopBridge } from '../../shared/desktop/desktop-bridge';
import { REMOTE_PROXY_PATH } from '../../shared/desktop/desktop-bridge';
import { apiKeyProblem, parseServerUrl, serverOriginParam } from '../../shared/desktop/server-address';
import type { Credentials } from './credentials';
import { fetchEventSource } from './fetch-event-source';
import { createHttpTransport } from './http-transport';
import { chooseTransport, type TransportKind } from './index';

/**
 * Which host the studio talks to (STU-08): the local one (the desktop's IPC, or the server that served
 * this page), or a team's `yukta serve`. A switch between the transports the renderer already has, not a
 * second client: a team server is the ordinary HTTP transport, with the key as a Bearer header (browser) or
 * through the desktop app's same-origin forwarding, which adds the key in main (desktop).
 */
export type ServerTarget =
  { kind: 'local' } | { kind: 'remote'; url: string; via: 'desktop' } | { kind: 'remote'; url: string; via: 'browser'; apiKey: string };

/** Where a browser keeps the chosen server for this tab (sessionStorage: gone when the tab closes). */
export const REMOTE_SERVER_KEY = 'yukta.remote-server';

type Storage = Pick<globalThis.Storage, 'getItem' | 'setItem' | 'removeItem'>;

/**
 * The target of this page: the desktop's choice (asked over its bridge); else the tab's stored server when
 * the page was opened for it (`?server=<its origin>`, which its CSP allows); else local.
 */
export async function currentTarget(desktop: DesktopBridge | null, storage: Storage | null, search = ''): Promise<ServerTarget> {
  if (desktop) {
    const host = await desktop.host().catch(() => ({ kind: 'local' as const }));
    return host.kind === 'remote' ? { kind: 'remote', url: host.url, via: 'desktop' } : { kind: 'local' };
  }
  const raw = storage?.getItem(REMOTE_SERVER_KEY);
  if (!raw) return { kind: 'local' };
  try {
    const stored = JSON.parse(raw) as { url?: unknown; apiKey?: unknown };
    const url = typeof stored.url === 'string' ? parseServerUrl(stored.url) : null;
    const opened = serverOriginParam(search);
    if (url?.ok && opened === new URL(url.url).origin && typeof stored.apiKey === 'string' && !apiKeyProblem(stored.apiKey))
      return { kind: 'remote', url: url.url, via: 'browser', apiKey: stored.apiKey };
  } catch {
    // A damaged entry counts as none.
  }
  return { kind: 'local' };
}

export function rememberBrowserTarget(storage: Storage, url: string, apiKey: string): void {
  storage.setItem(REMOTE_SERVER_KEY, JSON.stringify({ url, apiKey }));
}

/** A connection asked for, to be checked by the page opened for that server (its CSP allows only it). */
export const PENDING_SERVER_KEY = 'yukta.remote-server.pending';

export function rememberPendingTarget(storage: Storage, url: string, apiKey: string): void {
  storage.setItem(PENDING_SERVER_KEY, JSON.stringify({ url, apiKey }));
}

/** The pending connection this page was opened for (`?server=` its origin), taken out of storage; else null. */
export function takePendingTarget(storage: Storage, search: string): { url: string; apiKey: string } | null {
  const raw = storage.getItem(PENDING_SERVER_KEY);
  storage.removeItem(PENDING_SERVER_KEY);
  if (!raw) return null;
  try {
    const pending = JSON.parse(raw) as { url?: unknown; apiKey?: unknown };
    const url = typeof pending.url === 'string' ? parseServerUrl(pending.url) : null;
    if (url?.ok && typeof pending.apiKey === 'string' && serverOriginParam(search) === new URL(url.url).origin) return { url: url.url, apiKey: pending.apiKey };
  } catch {
    // A damaged entry is dropped.
  }
  return null;
}

export function forgetBrowserTarget(storage: Storage): void {
  storage.removeItem(REMOTE_SERVER_KEY);
}

/** The app's client for a target. */
export function clientFor(target: ServerTarget, scope: unknown = globalThis, credentials?: Credentials): { kind: TransportKind; client: StudioClient } {
  if (target.kind === 'local') {
    const { kind, transport } = chooseTransport(scope, credentials);
    return { kind, client: createStudioClient(transport) };
  }
  const headers: Record<string, string> = target.via === 'browser' ? { authorization: `Bearer ${target.apiKey}` } : {};
  const baseUrl = target.via === 'browser' ? target.url : REMOTE_PROXY_PATH;
  const transport = createHttpTransport({ baseUrl, headers, createEventSource: (url) => fetchEventSource(url, headers) });
  return { kind: 'http', client: createStudioClient(transport) };
}

/** The host's name for the app bar and the window title: `Local`, or the server's host (and path). */
export function targetLabel(target: ServerTarget): string {
  if (target.kind === 'local') return 'Local';
  const url = new URL(target.url);
  return `${url.host}${url.pathname === '/' ? '' : url.pathname}`;
}
