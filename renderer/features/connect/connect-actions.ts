import type { ConnectOutcome, DesktopBridge } from '../../../shared/desktop/desktop-bridge';
import { apiKeyProblem, parseServerUrl, PROBE_PATH, probeOutcome } from '../../../shared/desktop/server-address';
import { forgetBrowserTarget, rememberBrowserTarget } from '../../api/server-target';

export interface ConnectDeps {
  desktop: DesktopBridge | null;
  storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;
  fetch: typeof fetch;
  /** Opens the studio anew on the chosen host (at its start page: a workflow of one host means nothing on another). */
  restart(): void;
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
 * Connect to server (STU-08): checks the address and key, asks the server (with the key) through the
 * desktop app or from the page, keeps the choice (desktop: main, key with safeStorage; browser: this tab's
 * sessionStorage) and restarts the studio on it. A refusal says why, at its field, and changes nothing.
 */
export async function connectToServer(urlText: string, apiKey: string, deps: ConnectDeps): Promise<ConnectOutcome> {
  const url = parseServerUrl(urlText);
  if (!url.ok) return { ok: false, field: 'url', message: url.message };
  const keyProblem = apiKeyProblem(apiKey);
  if (keyProblem) return { ok: false, field: 'apiKey', message: keyProblem };
  const outcome = deps.desktop ? await deps.desktop.connect(url.url, apiKey) : await probeFromBrowser(url.url, apiKey, deps.fetch);
  if (!outcome.ok) return outcome;
  if (!deps.desktop) rememberBrowserTarget(deps.storage, url.url, apiKey);
  deps.restart();
  return outcome;
}

/** Back to the local host. */
export async function backToLocal(deps: ConnectDeps): Promise<void> {
  if (deps.desktop) await deps.desktop.disconnect();
  else forgetBrowserTarget(deps.storage);
  deps.restart();
}

export function browserConnectDeps(desktop: DesktopBridge | null): ConnectDeps {
  return {
    desktop,
    storage: window.sessionStorage,
    fetch: (input, init) => fetch(input, init),
    restart: () => window.location.replace(window.location.pathname + window.location.search),
  };
}
