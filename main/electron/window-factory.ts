import type { BrowserWindowConstructorOptions } from 'electron';
import { APP_ROOT_URL, isAppUrl } from '../ipc/app-origin';

/** The renderer's CSP: nothing from elsewhere; inline styles only because React Flow positions nodes with them. */
export const CONTENT_SECURITY_POLICY =
  "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'self'; frame-ancestors 'none'";

/**
 * The CSP for the page. With the Vite dev server, its inline refresh preamble and its HMR websocket are
 * allowed too — only in development, never in the packaged app.
 */
export function contentSecurityPolicy(devServerUrl?: string): string {
  if (!devServerUrl) return CONTENT_SECURITY_POLICY;
  const dev = new URL(devServerUrl);
  const ws = `${dev.protocol === 'https:' ? 'wss' : 'ws'}://${dev.host}`;
  return CONTENT_SECURITY_POLICY.replace("script-src 'self'", "script-src 'self' 'unsafe-inline'").replace("connect-src 'self'", `connect-src 'self' ${ws}`);
}

/** The main window's options: isolated, sandboxed renderer without Node, with our preload only. */
export function mainWindowOptions(preloadPath: string): BrowserWindowConstructorOptions {
  return {
    width: 1400,
    height: 900,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Yukta Studio',
    backgroundColor: '#1e1e1e',
    webPreferences: {
      preload: preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      experimentalFeatures: false,
      // A middle click cannot open anything (electronegativity AUXCLICK_JS_CHECK); new windows are denied anyway.
      disableBlinkFeatures: 'Auxclick',
      navigateOnDragDrop: false,
      spellcheck: false,
    },
  };
}

/** Where the window loads the renderer: the dev server in development, else the app protocol. */
export function rendererEntryUrl(devServerUrl?: string): string {
  return devServerUrl ?? `${APP_ROOT_URL}index.html`;
}

/** Navigation stays inside the studio's own origin; everything else is blocked (SEC-03). */
export function isAllowedNavigation(url: string, devServerUrl?: string): boolean {
  return isAppUrl(url, devServerUrl);
}

const LOCAL_SCHEMES = new Set(['data:', 'blob:', 'devtools:']);

/**
 * No remote content (SEC-03): the page may load from its own origin, inline data/blob URLs and the
 * devtools; with the dev server, also that server's HMR websocket.
 */
export function isAllowedRequest(url: string, devServerUrl?: string): boolean {
  if (isAppUrl(url, devServerUrl)) return true;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  if (LOCAL_SCHEMES.has(parsed.protocol)) return true;
  if (!devServerUrl) return false;
  const dev = new URL(devServerUrl);
  return (parsed.protocol === 'ws:' || parsed.protocol === 'wss:') && parsed.host === dev.host;
}
