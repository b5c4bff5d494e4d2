/**
 * The desktop app's main process: one StudioHost for the user's data folder, the StudioApi over IPC, a
 * sandboxed window loading the renderer from `app://studio/` (or the Vite dev server), and nothing else
 * reachable: navigation, new windows, permissions and remote requests are refused (SEC-03). The desktop
 * shell around it (STU-08): the native menu, workflow files and `yukta://` links from the OS, one
 * instance, the window's place restored, a question before quitting with runs active, a team server.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, protocol, safeStorage, session, shell } from 'electron';
import { DESKTOP_CHANNELS, REMOTE_PROXY_PATH } from '../../shared/desktop/desktop-bridge';
import { packageRoot } from '../cli/paths';
import { lockDataFolder, type DataFolderLock } from '../host/data-folder-lock';
import { loadSettings, type LoadedSettings } from '../host/loaded-settings';
import { SettingsError } from '../host/settings-sources';
import { listenerSettingsOf, type ListenerSettings } from '../workers/listener-settings';
import { EncryptedSecretStore } from '../host/secret-store';
import { LOCAL_UI_CALLER, StudioHost } from '../host/studio-host';
import type { StudioHttpServer } from '../http/http-server';
import { APP_SCHEME } from '../ipc/app-origin';
import { registerIpcHandlers, type IpcRegistration } from '../ipc/register-ipc-handlers';
import { createTrustedSenderCheck } from '../ipc/trusted-sender';
import { openApprovalDeepLink } from './approval-links';
import type { ApprovalNotifier } from './approval-notifier';
import { showStudioAt, startDesktopApprovals } from './desktop-approvals';
import { registerDesktopIpc } from './desktop-ipc';
import { installAppMenu } from './desktop-menu';
import { createMainWindow } from './desktop-window';
import { createFileOpener } from './file-opener';
import { secureSession, WindowGuard, type HardenOptions } from './harden';
import { createMainActions } from './main-actions';
import { chooseSqliteBinding, SQLITE_ADDON } from './native-abi';
import { launchRequest } from './open-file';
import { createQuitGuard, quitChoiceOf, quitDialogOptions } from './quit-guard';
import { RecentFiles } from './recent-files';
import { checkServer, forwardToServer, RemoteServerStore, type RemoteTarget } from './remote-server';
import { contentSecurityPolicy, rendererEntryUrl } from './window-factory';

const devServerUrl = process.env.YUKTA_DEV_SERVER_URL || undefined;
const csp = contentSecurityPolicy(devServerUrl);
// This file runs only as the CJS bundle dist/main/electron.cjs, so __dirname is dist/main — whether the app
// is started as `electron .`, `electron dist/main/electron.cjs` or from a packaged asar.
const PRELOAD_PATH = join(__dirname, 'preload.cjs');
const RENDERER_DIR = join(__dirname, '..', 'renderer');
const userData = app.getPath('userData');
// Read now: the files and links this launch names (the OS's argv of the first instance).
const launchArgv = [...process.argv];
const launchCwd = process.cwd();
const log = (message: string) => console.warn(message);

let host: StudioHost | null = null;
let dataLock: DataFolderLock | null = null;
let ipc: IpcRegistration | null = null;
let desktopIpc: { dispose(): void } | null = null;
let http: StudioHttpServer | null = null;
let workers: { close(): Promise<void> } | null = null;
let mainWindow: BrowserWindow | null = null;
let approvals: ApprovalNotifier | null = null;
let menu: { refresh(): void } | null = null;
let remote: RemoteTarget | null = null;

protocol.registerSchemesAsPrivileged([{ scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
app.enableSandbox();

const windows = new WindowGuard();
const hardenOptions: HardenOptions = {
  ...(devServerUrl ? { devServerUrl } : {}),
  // Only http(s) links the user clicked (see isExternalLinkClick) reach the user's browser.
  openExternal: (url) => shell.openExternal(url),
  log,
};
const recent = new RecentFiles(userData);
const files = createFileOpener({
  recent: {
    add: (path) => (recent.add(path), app.addRecentDocument?.(path), menu?.refresh()),
    remove: (path) => (recent.remove(path), menu?.refresh()),
  },
  send: (contents, file) => contents.send(DESKTOP_CHANNELS.openFile, file),
  log,
});
const actions = createMainActions({
  window: () => mainWindow,
  openFiles: (paths) => files.open(paths, process.cwd()),
  recent,
  refreshMenu: () => menu?.refresh(),
});
let hostReady!: () => void;
const hostStarted = new Promise<void>((resolve) => (hostReady = resolve));

/** A `yukta://` link (OS protocol handler, a notification): the inbox at that approval, once the host runs. */
function openDeepLink(link: string): void {
  void hostStarted.then(() =>
    openApprovalDeepLink(link, {
      listApprovals: async () => {
        const result = await host!.invoke('approvals.list', { limit: 1000 }, LOCAL_UI_CALLER);
        return result.ok ? result.value : [];
      },
      openHash: (hash) => showStudioAt(mainWindow, hash),
      log,
    }),
  );
}

/** Files and links a launch names (this one's argv, or a second launch's). */
function handleLaunch(argv: readonly string[], cwd: string): void {
  const request = launchRequest(argv, app.isPackaged);
  for (const ignored of request.ignored) log(`yukta: ignored argument ${ignored}`);
  files.open(request.files, cwd);
  for (const link of request.links) openDeepLink(link);
}

/** better-sqlite3 for this Electron: the build `npm start` fetched, unless packaged (electron-builder rebuilt it). */
function sqliteBinding(): { sqliteNativeBinding?: string } {
  const manifestPath = createRequire(__filename).resolve('better-sqlite3/package.json');
  const { version } = createRequire(__filename)('better-sqlite3/package.json') as { version: string };
  // From a checkout the app may be started as `electron .` or `electron dist/main/electron.cjs`: find the checkout itself.
  const appRoot = app.isPackaged ? app.getAppPath() : packageRoot(__dirname);
  const choice = chooseSqliteBinding({
    packaged: app.isPackaged,
    appRoot,
    sqliteVersion: version,
    packageAddon: join(dirname(manifestPath), SQLITE_ADDON),
    abi: Number(process.versions.modules),
    platform: process.platform,
    arch: process.arch,
  });
  if (choice.kind === 'missing') throw new Error(choice.message);
  return choice.kind === 'binding' ? { sqliteNativeBinding: choice.path } : {};
}

/** Runs still going (not ended) on the local host. */
async function activeRuns(): Promise<string[]> {
  if (!host) return [];
  const lists = await Promise.all(
    (['PENDING', 'QUEUED', 'RUNNING'] as const).map((status) => host!.invoke('runs.list', { status, limit: 1000 }, LOCAL_UI_CALLER)),
  );
  return lists.flatMap((r) => (r.ok ? (r.value as Array<{ executionId: string }>).map((run) => run.executionId) : []));
}

const quitGuard = createQuitGuard({
  activeRuns,
  ask: async (count) => {
    const options = quitDialogOptions(count);
    const answer = mainWindow ? await dialog.showMessageBox(mainWindow, options) : await dialog.showMessageBox(options);
    return quitChoiceOf(answer.response);
  },
  stop: async (executionId, mode) => void (await host?.invoke('control.send', { executionId, command: { type: 'StopWorkflow', mode } }, LOCAL_UI_CALLER)),
});

function createWindow(): void {
  const window = createMainWindow(windows, PRELOAD_PATH, userData);
  window.on('closed', () => {
    if (mainWindow === window) mainWindow = null;
  });
  window.on('close', (event) => {
    // Closing the last window quits (not on macOS): ask first when runs are active.
    if (process.platform === 'darwin' || quitGuard.confirmed) return;
    event.preventDefault();
    void quitGuard.confirm().then((ok) => ok && app.quit());
  });
  window.webContents.on('did-start-loading', () => files.notReady());
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

/** The workers' listener (SCL-01) when `yukta.workers.enabled`; its settings were checked before the window opened. */
async function startWorkersIfEnabled(studio: StudioHost, config: ListenerSettings | null): Promise<void> {
  if (config === null) return;
  const { startWorkerListener } = await import('../workers/worker-listener');
  const listener = await startWorkerListener({
    ...config,
    registry: studio.engine.workers,
    log: (level, text) => (level === 'warn' ? console.warn : console.log)(`yukta workers: ${text}`),
  });
  workers = listener;
  console.log(`Yukta workers connect at ${listener.url}`);
}

function registerDesktopChannels(isTrustedSender: ReturnType<typeof createTrustedSenderCheck>, servers: RemoteServerStore): void {
  desktopIpc = registerDesktopIpc(ipcMain, {
    isTrustedSender,
    host: () => (remote ? { kind: 'remote', url: remote.url } : { kind: 'local' }),
    connect: async (url, apiKey) => {
      const { outcome, target } = await checkServer(url, apiKey);
      if (!outcome.ok || !target) return outcome;
      try {
        servers.save(target);
      } catch (error) {
        return { ok: false, field: 'apiKey', message: (error as Error).message };
      }
      remote = target;
      return outcome;
    },
    disconnect: async () => {
      servers.clear();
      remote = null;
    },
    filesReady: (sender) => files.ready(sender),
    openFileDialog: () => actions.run('open-file'),
  });
}

/**
 * `<data>/settings.json` and the environment (CFG-01). A refused setting is shown in a dialog and the app
 * quits (exit 1) instead of opening with defaults, which could leave a protection off.
 */
function desktopSettings(dataDir: string): { loaded: LoadedSettings; workers: ListenerSettings | null } | null {
  try {
    const loaded = loadSettings({ dataDir, env: process.env });
    return { loaded, workers: listenerSettingsOf(loaded.values) };
  } catch (error) {
    if (!(error instanceof SettingsError)) throw error;
    dialog.showErrorBox('Yukta Studio cannot start', `${error.message}\n\nFix the setting and start Yukta Studio again.`);
    app.exit(1);
    return null;
  }
}

async function start(): Promise<void> {
  await app.whenReady();
  const servers = new RemoteServerStore(userData, safeStorage);
  remote = servers.load();
  const forward = (request: Request) => (new URL(request.url).pathname.startsWith(`${REMOTE_PROXY_PATH}/`) ? forwardToServer(remote, request) : null);
  secureSession(session.defaultSession, { rendererDir: RENDERER_DIR, csp, forward, ...(devServerUrl ? { devServerUrl } : {}) });
  const dataDir = process.env.YUKTA_DATA_DIR || userData;
  const checked = desktopSettings(dataDir);
  if (!checked) return;
  const settings = checked.loaded;
  // The single-instance lock covers other copies of the app; this one covers `yukta serve` and `yukta mcp` too.
  dataLock = lockDataFolder(dataDir, { command: 'desktop' });
  // Secrets stored in the studio are encrypted by the OS keychain (safeStorage).
  // `open`: with `yukta.store=postgres` the stores connect to their server first (DUR-04).
  host = await StudioHost.open({
    dataDir,
    settings,
    secretStore: new EncryptedSecretStore(dataDir, safeStorage),
    onInternalError: (e, id) => console.error(`yukta: internal error ${id}`, e),
    ...sqliteBinding(),
  });
  const isTrustedSender = createTrustedSenderCheck(devServerUrl ? { devServerUrl } : {});
  ipc = registerIpcHandlers(ipcMain, host, { isTrustedSender });
  registerDesktopChannels(isTrustedSender, servers);
  // STU-05: a native notification per new approval (a click opens its yukta:// link) and the dock/taskbar badge.
  approvals = startDesktopApprovals(host, openDeepLink);
  await startHttpIfEnabled(host, RENDERER_DIR);
  await startWorkersIfEnabled(host, checked.workers);
  menu = installAppMenu(
    () => ({ platform: process.platform, appName: app.getName(), recent: recent.list(), theme: actions.theme(), developer: !app.isPackaged }),
    {
      command: (id) => mainWindow?.webContents.send(DESKTOP_CHANNELS.command, id),
      action: actions.run,
    },
  );
  createWindow();
  hostReady();
  handleLaunch(launchArgv, launchCwd);
  // The installers register yukta:// (and .yukta.json) for a packaged app; a checkout does not claim them.
  if (app.isPackaged) app.setAsDefaultProtocolClient('yukta');
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow();
  });
}

/**
 * App quit (ADM-01): first the host drains — new starts are refused (`reason=shutdown`), queued ones too, and
 * running runs get `yukta.execution.shutdown-timeout` — while IPC and HTTP still answer (an approval can still
 * let a run finish); then the transports close and the stores are flushed and closed.
 */
async function shutdown(): Promise<void> {
  await host?.drain();
  approvals?.stop();
  desktopIpc?.dispose();
  ipc?.dispose();
  await workers?.close();
  await http?.close();
  await host?.close();
  dataLock?.release();
}

let quitting: 'no' | 'asking' | 'closing' | 'closed' = 'no';
app.on('before-quit', (event) => {
  if (quitting === 'closed') return;
  event.preventDefault(); // ask about active runs, then close the host (ends runs, flushes stores) before the process exits
  if (quitting !== 'no') return;
  quitting = 'asking';
  void quitGuard.confirm().then((ok) => {
    if (!ok) return void (quitting = 'no');
    quitting = 'closing';
    return shutdown()
      .catch((error: unknown) => console.error('yukta: shutdown failed', error))
      .finally(() => {
        quitting = 'closed';
        app.quit();
      });
  });
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});
app.on('web-contents-created', (_event, contents) => windows.onWebContentsCreated(contents, hardenOptions));
// macOS hands files and links over as events (also before ready, for the file or link that launched the app).
app.on('open-file', (event, path) => (event.preventDefault(), files.open([path], process.cwd())));
app.on('open-url', (event, url) => (event.preventDefault(), openDeepLink(url)));

// One instance per user: two processes writing the same data folder would corrupt it. A second launch
// hands its files and links to this one.
if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', (_event, argv, workingDirectory) => {
    if (mainWindow?.isMinimized()) mainWindow.restore();
    mainWindow?.focus();
    handleLaunch(argv, workingDirectory);
  });
  start().catch((error: unknown) => {
    console.error('yukta: failed to start', error);
    dialog.showErrorBox?.('Yukta Studio cannot start', error instanceof Error ? error.message : String(error));
    app.exit(1);
  });
}
