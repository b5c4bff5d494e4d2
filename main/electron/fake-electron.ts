import { EventEmitter } from 'node:events';

/** Test helper: just enough of Electron's main-process API to start dist/main/electron.cjs in Node. */

type Handler = (...args: unknown[]) => unknown;

export interface FakeWindow {
  options: { webPreferences?: Record<string, unknown> };
  url?: string;
}

export interface FakeElectron {
  module: Record<string, unknown>;
  app: EventEmitter;
  windows: FakeWindow[];
  ipcHandlers: Map<string, Handler>;
  schemes: Array<{ scheme: string; privileges: Record<string, boolean> }>;
  session: { permissionRequest?: Handler; permissionCheck?: Handler; beforeRequest?: Handler; protocolHandler?: (request: Request) => Promise<Response> };
  sandboxEnabled: boolean;
  /** Resolves when the first window is created. */
  windowCreated: Promise<FakeWindow>;
  /** Resolves when a quit goes through (no before-quit listener prevented it). */
  quitCompleted: Promise<void>;
  ready(): void;
}

export function fakeElectron(userData: string): FakeElectron {
  let ready!: () => void;
  const whenReady = new Promise<void>((resolve) => (ready = resolve));
  let windowCreated!: (w: FakeWindow) => void;
  let quitCompleted!: () => void;
  const fake: FakeElectron = {
    module: {},
    app: new EventEmitter(),
    windows: [],
    ipcHandlers: new Map(),
    schemes: [],
    session: {},
    sandboxEnabled: false,
    windowCreated: new Promise((resolve) => (windowCreated = resolve)),
    quitCompleted: new Promise((resolve) => (quitCompleted = resolve)),
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
    exit: (code: number) => {
      throw new Error(`app.exit(${code})`);
    },
  });
  class BrowserWindow extends EventEmitter implements FakeWindow {
    url?: string;
    constructor(readonly options: FakeWindow['options']) {
      super();
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
    protocol: { registerSchemesAsPrivileged: (s: FakeElectron['schemes']) => fake.schemes.push(...s) },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (h: Handler) => (fake.session.permissionRequest = h),
        setPermissionCheckHandler: (h: Handler) => (fake.session.permissionCheck = h),
        webRequest: { onBeforeRequest: (h: Handler) => (fake.session.beforeRequest = h), onHeadersReceived: () => undefined },
        protocol: { handle: (_scheme: string, h: (r: Request) => Promise<Response>) => (fake.session.protocolHandler = h) },
      },
    },
  };
  return fake;
}
