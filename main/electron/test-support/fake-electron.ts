import { EventEmitter } from 'node:events';

/** Test helper: just enough of Electron's main-process API to start dist/main/electron.cjs in Node. */

type Handler = (...args: unknown[]) => unknown;

export interface FakeWindow extends EventEmitter {
  options: { webPreferences?: Record<string, unknown>; x?: number; y?: number; width?: number; height?: number };
  url?: string;
  webContents: FakeContents;
  maximized: boolean;
  /** Channels and arguments sent to the page (`webContents.send`). */
  sent: Array<[string, ...unknown[]]>;
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
  /** The page's address (`loadURL`); tests may set it. */
  url: string;
  /** Native edits called (`copy`, `paste`…) and messages sent. */
  edits: string[];
  sent: Array<[string, ...unknown[]]>;
  send(channel: string, ...args: unknown[]): void;
  isDestroyed(): boolean;
  getURL(): string;
  loadURL(url: string): Promise<void>;
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
    edits: [] as string[],
    sent: [] as Array<[string, ...unknown[]]>,
    url: '',
    send: (channel: string, ...args: unknown[]) => void contents.sent.push([channel, ...args]),
    isDestroyed: () => contents.closed,
    getURL: () => contents.url,
    loadURL(url: string) {
      contents.url = url;
      return Promise.resolve();
    },
    reload: () => contents.emit('did-start-loading'),
    toggleDevTools: () => undefined,
    ...Object.fromEntries(['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll'].map((edit) => [edit, () => void contents.edits.push(edit)])),
  });
  return contents;
}

/** The application menu as set: Electron's template (items with `click`, `role`, `submenu`). */
export interface FakeMenuItem {
  label?: string;
  role?: string;
  type?: string;
  accelerator?: string;
  registerAccelerator?: boolean;
  checked?: boolean;
  click?: () => void;
  submenu?: FakeMenuItem[];
}

export interface FakeElectron {
  module: Record<string, unknown>;
  app: EventEmitter;
  windows: FakeWindow[];
  ipcHandlers: Map<string, Handler>;
  schemes: Array<{ scheme: string; privileges: Record<string, boolean> }>;
  session: {
    permissionRequest?: Handler;
    permissionCheck?: Handler;
    devicePermission?: Handler;
    beforeRequest?: Handler;
    headersReceived?: Handler;
    protocolHandler?: (request: Request) => Promise<Response>;
  };
  /** URLs passed to shell.openExternal. */
  openedExternally: string[];
  sandboxEnabled: boolean;
  /** Resolves when the first window is created. */
  windowCreated: Promise<FakeWindow>;
  /** Resolves when a quit goes through (no before-quit listener prevented it). */
  quitCompleted: Promise<void>;
  /** The application menu's template, once set. */
  menu: FakeMenuItem[] | null;
  /** Answers the next message boxes give (button index), in order; 0 when none is left. */
  dialogAnswers: number[];
  /** Message boxes shown (their options). */
  dialogs: Array<Record<string, unknown>>;
  /** Recent documents added (`app.addRecentDocument`). */
  recentDocuments: string[];
  nativeTheme: { themeSource: string };
  /** Notifications shown (`new Notification(…).show()`); `click()` is the user clicking one. */
  notifications: Array<{ title: string; body: string; click(): void }>;
  /** Error boxes shown (dialog.showErrorBox): title and content. */
  errorBoxes: Array<{ title: string; content: string }>;
  /** Resolves with the code of app.exit. */
  exited: Promise<number>;
  ready(): void;
}

export interface FakeElectronOptions {
  /** `app.getAppPath()` (the checkout; default the working directory). */
  appPath?: string;
  packaged?: boolean;
}

export function fakeElectron(userData: string, options: FakeElectronOptions = {}): FakeElectron {
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
    menu: null,
    dialogAnswers: [],
    dialogs: [],
    recentDocuments: [],
    nativeTheme: { themeSource: 'system' },
    notifications: [],
    errorBoxes: [],
    exited: new Promise((resolve) => (exited = resolve)),
    ready,
  };
  const app = Object.assign(fake.app, {
    enableSandbox: () => (fake.sandboxEnabled = true),
    requestSingleInstanceLock: () => true,
    whenReady: () => whenReady,
    getPath: () => userData,
    getAppPath: () => options.appPath ?? process.cwd(),
    isPackaged: options.packaged ?? false,
    getName: () => 'Yukta Studio',
    getVersion: () => '0.1.0',
    addRecentDocument: (path: string) => void fake.recentDocuments.push(path),
    clearRecentDocuments: () => void (fake.recentDocuments = []),
    setAsDefaultProtocolClient: () => true,
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
    maximized = false;
    readonly webContents = fakeContents('window');
    get sent() {
      return this.webContents.sent;
    }
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
      return this.webContents.loadURL(url);
    }
    maximize = () => void (this.maximized = true);
    isMaximized = () => this.maximized;
    isMinimized = () => false;
    getNormalBounds = () => ({ x: this.options.x ?? 100, y: this.options.y ?? 80, width: this.options.width ?? 1400, height: this.options.height ?? 900 });
    restore = () => undefined;
    show = () => undefined;
    focus = () => undefined;
  }
  class Notification extends EventEmitter {
    static isSupported = () => true;
    constructor(private readonly options: { title: string; body: string }) {
      super();
    }
    show(): void {
      fake.notifications.push({ ...this.options, click: () => this.emit('click') });
    }
  }
  const display = { id: 1, workArea: { x: 0, y: 0, width: 1920, height: 1080 } };
  const messageBox = async (...args: unknown[]) => {
    fake.dialogs.push(args[args.length - 1] as Record<string, unknown>);
    return { response: fake.dialogAnswers.shift() ?? 0 };
  };
  fake.module = {
    app,
    BrowserWindow,
    Notification,
    Menu: {
      buildFromTemplate: (template: FakeMenuItem[]) => ({ template }),
      setApplicationMenu: (menu: { template: FakeMenuItem[] }) => void (fake.menu = menu.template),
    },
    screen: { getPrimaryDisplay: () => display, getAllDisplays: () => [display] },
    dialog: {
      showMessageBox: messageBox,
      showOpenDialog: async () => ({ canceled: true, filePaths: [] }),
      showErrorBox: (title: string, content: string) => void fake.errorBoxes.push({ title, content }),
    },
    nativeTheme: fake.nativeTheme,
    // Reversible, so tests can read what was stored; the real one is the OS keychain.
    safeStorage: {
      isEncryptionAvailable: () => true,
      encryptString: (t: string) => Buffer.from(`enc:${t}`),
      decryptString: (b: Buffer) => b.toString().replace(/^enc:/, ''),
    },
    ipcMain: { handle: (c: string, h: Handler) => fake.ipcHandlers.set(c, h), removeHandler: (c: string) => fake.ipcHandlers.delete(c) },
    shell: { openExternal: (url: string) => (fake.openedExternally.push(url), Promise.resolve()) },
    protocol: { registerSchemesAsPrivileged: (s: FakeElectron['schemes']) => fake.schemes.push(...s) },
    session: {
      defaultSession: {
        setPermissionRequestHandler: (h: Handler) => (fake.session.permissionRequest = h),
        setPermissionCheckHandler: (h: Handler) => (fake.session.permissionCheck = h),
        setDevicePermissionHandler: (h: Handler) => (fake.session.devicePermission = h),
        webRequest: {
          onBeforeRequest: (h: Handler) => (fake.session.beforeRequest = h),
          onHeadersReceived: (h: Handler) => (fake.session.headersReceived = h),
        },
        protocol: { handle: (_scheme: string, h: (r: Request) => Promise<Response>) => (fake.session.protocolHandler = h) },
      },
    },
  };
  return fake;
}
