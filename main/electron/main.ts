/**
 * The desktop app's main process: one StudioHost for the user's data folder, the StudioApi over IPC, a
 * sandboxed window loading the renderer from `app://studio/` (or the Vite dev server), and nothing else
 * reachable: navigation, new windows, permissions and remote requests are refused (SEC-03).
 */
import { join } from 'node:path';
import { app, BrowserWindow, ipcMain, protocol, safeStorage, session, shell } from 'electron';
import { lockDataFolder, type DataFolderLock } from '../host/data-folder-lock';
import { loadHostSettings } from '../host/host-settings';
import { EncryptedSecretStore } from '../host/secret-store';
import { StudioHost } from '../host/studio-host';
import type { StudioHttpServer } from '../http/http-server';
import { APP_SCHEME } from '../ipc/app-origin';
import { registerIpcHandlers, type IpcRegistration } from '../ipc/register-ipc-handlers';
import { createTrustedSenderCheck } from '../ipc/trusted-sender';
import type { ApprovalNotifier } from './approval-notifier';
import { startDesktopApprovals } from './desktop-approvals';
import { secureSession, WindowGuard, type HardenOptions } from './harden';
import { contentSecurityPolicy, mainWindowOptions, rendererEntryUrl } from './window-factory';

const devServerUrl = process.env.YUKTA_DEV_SERVER_URL || undefined;
const csp = contentSecurityPolicy(devServerUrl);
// This file runs only as the CJS bundle dist/main/electron.cjs, so __dirname is dist/main — whether the app
// is started as `electron .`, `electron dist/main/electron.cjs` or from a packaged asar.
const PRELOAD_PATH = join(__dirname, 'preload.cjs');
const RENDERER_DIR = join(__dirname, '..', 'renderer');

let host: StudioHost | null = null;
let dataLock: DataFolderLock | null = null;
let ipc: IpcRegistration | null = null;
let http: StudioHttpServer | null = null;
let mainWindow: BrowserWindow | null = null;
let approvals: ApprovalNotifier | null = null;

protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
app.enableSandbox();

const windows = new WindowGuard();
const hardenOptions: HardenOptions = {
  ...(devServerUrl ? { devServerUrl } : {}),
  // Only http(s) links the user clicked (see isExternalLinkClick) reach the user's browser.
  openExternal: (url) => shell.openExternal(url),
  log: (message) => console.warn(message),
};

function createWindow(): void {
  // Through the guard: insecure webPreferences throw, and only windows made here survive web-contents-created.
  const window = windows.create((options) => new BrowserWindow(options), mainWindowOptions(PRELOAD_PATH));
  window.once('ready-to-show', () => window.show());
  window.on('closed', () => {
    if (mainWindow === window) mainWindow = null;
  });
  mainWindow = window;
  void window.loadURL(rendererEntryUrl(devServerUrl));
}

/** The HTTP API stays off in the desktop app unless `yukta.http.enabled` (settings file, or YUKTA_HTTP_ENABLED=1). */
async function startHttpIfEnabled(studio: StudioHost, rendererDir: string): Promise<void> {
  if (studio.settings['yukta.http.enabled'] !== true) return;
  const { createHttpServer } = await import('../http/http-server');
  const port = studio.settings['yukta.http.port'] ?? 4310;
  http = await createHttpServer({ host: studio, rendererDir, bind: { host: '127.0.0.1', port } });
  const { url } = await http.listen();
  dataLock?.update({ url }); // `yukta mcp` on this folder points the user at this address
  console.log(`Yukta Studio HTTP API at ${url}`);
}

async function start(): Promise<void> {
  await app.whenReady();
  secureSession(session.defaultSession, { rendererDir: RENDERER_DIR, csp, ...(devServerUrl ? { devServerUrl } : {}) });
  const dataDir = process.env.YUKTA_DATA_DIR || app.getPath('userData');
  // The single-instance lock covers other copies of the app; this one covers `yukta serve` and `yukta mcp` too.
  dataLock = lockDataFolder(dataDir, { command: 'desktop' });
  // Secrets stored in the studio are encrypted by the OS keychain (safeStorage); settings from <data>/settings.json + environment.
  // `open`: with `yukta.store=postgres` the stores connect to their server first (DUR-04).
  host = await StudioHost.open({ dataDir, settings: loadHostSettings(dataDir, process.env), secretStore: new EncryptedSecretStore(dataDir, safeStorage), onInternalError: (e) => console.error('yukta: internal error', e) });
  ipc = registerIpcHandlers(ipcMain, host, { isTrustedSender: createTrustedSenderCheck(devServerUrl ? { devServerUrl } : {}) });
  // STU-05: a native notification per new approval (a click opens it in the inbox) and the dock/taskbar badge.
  approvals = startDesktopApprovals(host, () => mainWindow);
  await startHttpIfEnabled(host, RENDERER_DIR);
  createWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow();
  });
}

async function shutdown(): Promise<void> {
  approvals?.stop();
  ipc?.dispose();
  await http?.close();
  await host?.close();
  dataLock?.release();
}

let quitting: 'no' | 'closing' | 'closed' = 'no';
app.on('before-quit', (event) => {
  if (quitting === 'closed') return;
  event.preventDefault(); // close the host (ends runs, flushes stores) before the process exits
  if (quitting === 'closing') return;
  quitting = 'closing';
  void shutdown()
    .catch((error: unknown) => console.error('yukta: shutdown failed', error))
    .finally(() => {
      quitting = 'closed';
      app.quit();
    });
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});
app.on('web-contents-created', (_event, contents) => windows.onWebContentsCreated(contents, hardenOptions));

// One instance per user: two processes writing the same data folder would corrupt it.
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (mainWindow?.isMinimized()) mainWindow.restore();
    mainWindow?.focus();
  });
  start().catch((error: unknown) => {
    console.error('yukta: failed to start', error);
    app.exit(1);
  });
}
