/**
 * Runtime hardening of the desktop app (Electron's security checklist, SEC-03): every webContents gets the
 * navigation, new-window and webview guards; windows are made only through `WindowGuard.create`, which
 * refuses insecure webPreferences, and any other window or embedded page that appears is closed; the
 * session denies every permission and remote request and serves the renderer from `app://`.
 *
 * Written against small structural types (Electron's objects satisfy them) so it is unit-tested without
 * the Electron binary (`harden.test.ts`, and `bundle.test.ts` through `test-support/fake-electron.ts`).
 */
import { handleAppRequest } from './app-protocol';
import { isAllowedNavigation, isAllowedRequest } from './window-factory';
import { APP_SCHEME } from '../ipc/app-origin';

/** The webPreferences every studio window must have (the values Electron's checklist asks for). */
export const SECURE_WEB_PREFERENCES = {
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  webviewTag: false,
  experimentalFeatures: false,
  enableBlinkFeatures: undefined,
} as const;

type Prefs = Record<string, unknown>;

/**
 * What is wrong with a window's webPreferences, one line per setting, empty when secure. Every setting of
 * `SECURE_WEB_PREFERENCES` must be given explicitly with its value (no reliance on Electron's defaults).
 */
export function webPreferenceViolations(prefs: Prefs | undefined): string[] {
  const given = prefs ?? {};
  const problems: string[] = [];
  for (const [key, wanted] of Object.entries(SECURE_WEB_PREFERENCES)) {
    if (wanted === undefined) {
      if (given[key] !== undefined && given[key] !== '') problems.push(`${key} must not be set`);
    } else if (given[key] !== wanted) {
      problems.push(`${key} must be ${String(wanted)} (is ${given[key] === undefined ? 'unset' : JSON.stringify(given[key])})`);
    }
  }
  return problems;
}

/** The parts of a webContents the guards use. */
export interface ContentsLike {
  readonly id?: number;
  // Electron's overloads take listeners of many shapes; `any` keeps both it and EventEmitter assignable.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  on(event: string, listener: (...args: any[]) => void): unknown;
  setWindowOpenHandler(handler: (details: WindowOpenDetails) => { action: 'deny' } | { action: 'allow' }): void;
  getType?(): string;
  close?(): void;
}

export interface WindowOpenDetails {
  url: string;
  disposition?: string;
}

interface NavigationEvent {
  url: string;
  preventDefault(): void;
}

interface WebviewAttachEvent {
  preventDefault(): void;
}

export interface HardenOptions {
  /** The Vite dev server in development (its origin counts as the app's). */
  devServerUrl?: string;
  /** Electron's `shell.openExternal`; called only for http(s) links the user clicked. */
  openExternal(url: string): unknown;
  /** Current time in ms (tests pass a fake). */
  now?(): number;
  log?(message: string): void;
}

/** Link dispositions a click on `<a target="_blank">` (or a middle/ctrl-click) produces. */
const CLICK_DISPOSITIONS = new Set(['foreground-tab', 'background-tab']);
/** At most one external link per second: a page cannot flood the user's browser. */
const EXTERNAL_LINK_INTERVAL_MS = 1000;

/**
 * Whether a window-open request is a user's click on an outside web link: http(s) only, no credentials
 * in the URL, and a click disposition (not a script's `window.open` with window features).
 */
export function isExternalLinkClick(details: WindowOpenDetails): boolean {
  let url: URL;
  try {
    url = new URL(details.url);
  } catch {
    return false;
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
  if (url.username || url.password) return false;
  return CLICK_DISPOSITIONS.has(details.disposition ?? '');
}

/**
 * The guards of one webContents: navigation and redirects only within the app origin (parsed URLs),
 * every new window denied (a clicked http(s) link goes to the user's browser instead), no `<webview>`.
 */
export function hardenContents(contents: ContentsLike, options: HardenOptions): void {
  const now = options.now ?? Date.now;
  let lastExternal = Number.NEGATIVE_INFINITY;
  const blockForeign = (event: NavigationEvent): void => {
    if (!isAllowedNavigation(event.url, options.devServerUrl)) {
      event.preventDefault();
      options.log?.(`yukta: navigation to ${safeForLog(event.url)} blocked`);
    }
  };
  contents.on('will-navigate', blockForeign);
  contents.on('will-redirect', blockForeign);
  contents.on('will-frame-navigate', blockForeign);
  contents.on('will-attach-webview', (event: WebviewAttachEvent, webPreferences: Prefs) => {
    // Refused outright; the preferences are neutralised too in case a later listener re-allowed it.
    delete webPreferences.preload;
    Object.assign(webPreferences, SECURE_WEB_PREFERENCES);
    event.preventDefault();
  });
  contents.setWindowOpenHandler((details) => {
    if (isExternalLinkClick(details) && now() - lastExternal >= EXTERNAL_LINK_INTERVAL_MS) {
      lastExternal = now();
      void Promise.resolve(options.openExternal(new URL(details.url).href)).catch(() => undefined);
    }
    return { action: 'deny' };
  });
}

function safeForLog(url: string): string {
  return url.length > 200 ? `${url.slice(0, 200)}…` : url;
}

/**
 * Windows come only from `create`, which checks their webPreferences; a webContents of any other window,
 * a `<webview>` or a BrowserView that shows up anyway (`web-contents-created`) is closed. DevTools and
 * other internal contents are left alone.
 */
export class WindowGuard {
  private creating = 0;
  readonly closed: string[] = [];

  /** Builds a window with checked options; throws (nothing built) when its webPreferences are insecure. */
  create<O extends { webPreferences?: object }, T>(construct: (options: O) => T, options: O): T {
    const problems = webPreferenceViolations(options.webPreferences as Prefs | undefined);
    if (problems.length) throw new Error(`insecure window refused: ${problems.join('; ')}`);
    this.creating += 1;
    try {
      return construct(options);
    } finally {
      this.creating -= 1;
    }
  }

  /** Whether a new webContents is one the studio made (or an internal one such as DevTools). */
  admits(contents: ContentsLike): boolean {
    const type = contents.getType?.() ?? 'window';
    if (type === 'window') return this.creating > 0;
    return type !== 'webview' && type !== 'browserView';
  }

  /** The `web-contents-created` handler: guards every webContents and closes the ones not admitted. */
  onWebContentsCreated(contents: ContentsLike, options: HardenOptions): void {
    hardenContents(contents, options);
    if (this.admits(contents)) return;
    const what = `${contents.getType?.() ?? 'window'}#${contents.id ?? '?'}`;
    this.closed.push(what);
    options.log?.(`yukta: unexpected webContents ${what} closed`);
    contents.close?.();
  }
}

/** The parts of an Electron session the hardening uses. */
export interface SessionLike {
  setPermissionRequestHandler(handler: (contents: unknown, permission: string, callback: (granted: boolean) => void, details?: unknown) => void): void;
  setPermissionCheckHandler(handler: (contents: unknown, permission: string, origin?: string, details?: unknown) => boolean): void;
  setDevicePermissionHandler?(handler: (details: unknown) => boolean): void;
  webRequest: {
    onBeforeRequest(handler: (details: { url: string }, callback: (response: { cancel: boolean }) => void) => void): void;
    onHeadersReceived(
      handler: (
        details: { responseHeaders?: Record<string, string[] | string> },
        callback: (response: { responseHeaders: Record<string, string[] | string> }) => void,
      ) => void,
    ): void;
  };
  protocol: { handle(scheme: string, handler: (request: Request) => Promise<Response> | Response): void };
}

/**
 * Every permission (camera, microphone, geolocation, notifications, clipboard, HID/USB/serial…) is denied:
 * the renderer needs none — approval notifications are shown by the main process (`desktop-approvals.ts`).
 */
export function denyPermission(): false {
  return false;
}

export interface SecureSessionOptions {
  rendererDir: string;
  csp: string;
  devServerUrl?: string;
  /**
   * Takes over some `app://` requests before the renderer's files are looked up (the desktop app's
   * `app://studio/remote/api/…` forwarding to a team server, STU-08); null leaves a request to the files.
   */
  forward?(request: Request): Promise<Response> | null;
}

/** Denies permissions and remote requests, puts the CSP on every response and serves `app://`. */
export function secureSession(ses: SessionLike, options: SecureSessionOptions): void {
  ses.setPermissionRequestHandler((_contents, _permission, callback) => callback(denyPermission()));
  ses.setPermissionCheckHandler(() => denyPermission());
  ses.setDevicePermissionHandler?.(() => denyPermission());
  ses.webRequest.onBeforeRequest((details, callback) => callback({ cancel: !isAllowedRequest(details.url, options.devServerUrl) }));
  ses.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [options.csp] } });
  });
  ses.protocol.handle(APP_SCHEME, (request) => options.forward?.(request) ?? handleAppRequest(options.rendererDir, request, options.csp));
}
