import type { ConnectOutcome, DesktopBridge } from '../../../shared/desktop/desktop-bridge';
import { apiKeyProblem, parseServerUrl, PROBE_PATH, probeOutcome, SERVER_QUERY } from '../../../shared/desktop/server-address';
import { forgetBrowserTarget, rememberBrowserTarget, rememberPendingTarget, takePendingTarget } from '../../api/server-target';
import { confirmDiscard } from '../workflow/unsaved-guard';
import type { ConnectRefusal } from './connect-store';

export interface ConnectDeps {
  desktop: DesktopBridge | null;
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  fetch: typeof fetch;
  /**
   * Opens the studio anew on the chosen host (a team server's origin, or null for local), at its start
   * page: a workflow of one host means nothing on another.
   */
  restart(server: string | null): void;
}

/** In a browser the page checks the server itself: cross-origin, so the server must allow this origin (CORS). */
async function probeFromBrowser(url: string, apiKey: string, doFetch: typeof fetch): Promise<ConnectOutcome> {
  try {
    const response = await doFetch(url + PROBE_PATH, { headers: { authorization: `Bearer ${apiKey}`, accept: 'application/json' } });
    return probeOutcome(url, { status: response.status, json: await response.json().catch(() => null) });
  } catch {
    return probeOutcome(url, { unreachable: `no answer, or it does not allow pages from ${window.location.origin}: yukta.http.cors-origins on that server` });
  }
}

/**
 * Connect to server (STU-08): checks the address and key, then — desktop — asks main, which checks the
 * server with the key and keeps it (safeStorage); or — browser — opens the page for that server, whose CSP
 * lets it check the server (`finishPendingConnect`). Unsaved changes are asked about first. A refusal says
 * why, at its field, and changes nothing.
 */
export async function connectToServer(urlText: string, apiKey: string, deps: ConnectDeps): Promise<ConnectOutcome> {
  const url = parseServerUrl(urlText);
  if (!url.ok) return { ok: false, field: 'url', message: url.message };
  const keyProblem = apiKeyProblem(apiKey);
  if (keyProblem) return { ok: false, field: 'apiKey', message: keyProblem };
  if (deps.desktop) {
    const outcome = await deps.desktop.connect(url.url, apiKey);
    if (outcome.ok && (await confirmDiscard(undefined, 'Connecting opens the studio on that server.'))) deps.restart(null);
    return outcome;
  }
  if (!(await confirmDiscard(undefined, 'Connecting opens the studio on that server.')))
    return { ok: false, field: 'url', message: 'not connected: the unsaved changes were kept' };
  rememberPendingTarget(deps.storage, url.url, apiKey);
  deps.restart(new URL(url.url).origin);
  return { ok: true };
}

/**
 * In a browser, the page opened for a pending connection checks the server with the key: connected (kept
 * for this tab), or the refusal for the dialog (the studio then stays on the local host).
 */
export async function finishPendingConnect(deps: Pick<ConnectDeps, 'storage' | 'fetch'>, search: string): Promise<ConnectRefusal | null> {
  const pending = takePendingTarget(deps.storage, search);
  if (!pending) return null;
  const outcome = await probeFromBrowser(pending.url, pending.apiKey, deps.fetch);
  if (!outcome.ok) return { url: pending.url, apiKey: pending.apiKey, field: outcome.field, message: outcome.message };
  rememberBrowserTarget(deps.storage, pending.url, pending.apiKey);
  return null;
}

/** Back to the local host. */
export async function backToLocal(deps: ConnectDeps): Promise<void> {
  if (!(await confirmDiscard(undefined, 'Going back opens the studio on this machine.'))) return;
  if (deps.desktop) await deps.desktop.disconnect();
  else forgetBrowserTarget(deps.storage);
  deps.restart(null);
}

export function browserConnectDeps(desktop: DesktopBridge | null): ConnectDeps {
  return {
    desktop,
    storage: window.sessionStorage,
    fetch: (input, init) => fetch(input, init),
    // In a browser the page is opened for the server (`?server=`), so its CSP allows exactly that origin.
    restart: (server) => window.location.replace(window.location.pathname + (server && !desktop ? `?${SERVER_QUERY}=${encodeURIComponent(server)}` : '')),
  };
}
