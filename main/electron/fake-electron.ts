import { EventEmitter } from 'node:events';

/** Test helper: just enough of Electron's main-process API to start dist/main/electron.cjs in Node. */

type Handler = (...args: unknown[]) => unknown;

export interface FakeWindow {
  options: { webPreferences?: Record<string, unknown> };
  url?: string;
  webContents: FakeContents;
}

/** A webContents: navigation events, the window-open handler, its type, and whether it was closed. */
export interface FakeContents extends EventEmitter {
  id: number;
  type: string;
  closed: boolean;
  openHandler?: (details: { url: string; disposition?: string }) => unknown;
  setWindowOpenHandler(handler: (details: { url: string; disposition?: string }) => unknown): void;
  getType(): string;
  close(): void;
}

let nextContentsId = 1;

/** A new fake webContents of a type ('window', 'webview', 'browserView', 'remote'…). */
export function fakeContents(type = 'window'): FakeContents {
  const contents = Object.assign(new EventEmitter(), {
    id: nextContentsId++,
    type,
    closed: false,
    openHandler: undefined as FakeContents['openHandler'],
    setWindowOpenHandler(handler: NonNullable<FakeContents['openHandler']>) {
      contents.openHandler = handler;
    },
    getType: () => type,
    close() {
      contents.closed = true;
    },
  });
  return contents;
}

export interface FakeElectron {
  module: Record<string, unknown>;
  app: EventEmitter;
  windows: FakeWindow[];
  ipcHandlers: Map<string, Handler>;
  schemes: Array<{ scheme: string; privileges: Record<string, boolean> }>;
  session: { permissionRequest?: Handler; permissionCheck?: Handler; devicePermission?: Handler; beforeRequest?: Handler; headersReceived?: Handler; protocolHandler?: (request: Request) => Promise<Response> };
  /** URLs passed to shell.openExternal. */
  openedExternally: string[];
  sandboxEnabled: boolean;
  /** Resolves when the first window is created. */
  windowCreated: Promise<FakeWindow>;
  /** Resolves when a quit goes through (no before-quit listener prevented it). */
  quitCompleted: Promise<void>;
  /** Error boxes shown (dialog.showErrorBox): title and content. */
  errorBoxes: Array<{ title: string; content: string }>;
  /** Resolves with the code of app.exit. */
  exited: Promise<number>;
  ready(): void;
}

export function fakeElectron(userData: string): FakeElectron {
  let ready!: () => void;
  const whenReady = new Promise<void>((resolve) => (ready = resolve));
  let windowCreated!: (w: FakeWindow) => void;
  let quitCompleted!: () => void;
  let exited!: (code: number) => void;
  const fake: FakeElectron = {
    module: {},
    app: new EventEmitter(),
    windows: [],
    ipcHandlers: new Map(),
    schemes: [],
    session: {},
    sandboxEnabled: false,
    openedExternally: [],
    windowCreated: new Promise((resolve) => (windowCreated = resolve)),
    quitCompleted: new Promise((resolve) => (quitCompleted = resolve)),
    errorBoxes: [],
    exited: new Promise((resolve) => (exited = resolve)),
    ready,
  };
  const app = Object.assign(fake.app, {
    enableSandbox: () => (fake.sandboxEnabled = true),
    requestSingleInstanceLock: () => true,
    whenReady: () => whenReady,
    getPath: () => userData,
    quit: () => {
      const event = { defaultPrevented: false, preventDefault: () => (event.defaultPrevented = true) };
      fake.app.emit('before-quit', event);
      if (!event.defaultPrevented) quitCompleted();
    },
    // Like Electron: exits without before-quit; here it only records the code.
    exit: (code: number) => exited(code),
  });
  class BrowserWindow extends EventEmitter implements FakeWindow {
    url?: string;
    readonly webContents = fakeContents('window');
    constructor(readonly options: FakeWindow['options']) {
      super();
      // Like Electron: the window's webContents is announced while the constructor runs.
      fake.app.emit('web-contents-created', {}, this.webContents);
      fake.windows.push(this);
      windowCreated(this);
    }
    static getAllWindows = (): FakeWindow[] => fake.windows;
    loadURL(url: string): Promise<void> {
      this.url = url;
      return Promise.resolve();
    }
  }
  fake.module = {
    app,
    BrowserWindow,
    ipcMain: { handle: (c: string, h: Handler) => fake.ipcHandlers.set(c, h), removeHandler: (c: string) => fake.ipcHandlers.delete(c) },
    dialog: { showErrorBox: (title: string, content: string) => void fake.errorBoxes.push({ title, content }) },
    shell: { openExternal: (url: string) => (fake.openedExternally.push(url), Promise.resolve()) },
    protocol: { registerSchemesAsPrivileged: (s: FakeElectron['schemes']) => fake.schemes.push(...s) },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (h: Handler) => (fake.session.permissionRequest = h),
        setPermissionCheckHandler: (h: Handler) => (fake.session.permissionCheck = h),
        setDevicePermissionHandler: (h: Handler) => (fake.session.devicePermission = h),
        webRequest: { onBeforeRequest: (h: Handler) => (fake.session.beforeRequest = h), onHeadersReceived: (h: Handler) => (fake.session.headersReceived = h) },
        protocol: { handle: (_scheme: string, h: (r: Request) => Promise<Response>) => (fake.session.protocolHandler = h) },
      },
    },
  };
  return fake;
}
