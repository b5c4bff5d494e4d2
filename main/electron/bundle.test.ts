import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { compileFunction } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { OPERATION_NAMES } from '../../shared/api/contract';
import { parseHostSettings } from '../host/host-settings';
import { LOCAL_UI_CALLER, StudioHost } from '../host/studio-host';
import { helloWorkflow } from '../http/test-workflows';
import type { DesktopBridge } from '../../shared/desktop/desktop-bridge';
import type { YuktaBridge } from '../../shared/api/bridge';
import { loadElectronBundle } from './test-support/bundle-support';
import { fakeContents, fakeElectron, type FakeElectron } from './test-support/fake-electron';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
// Inside the repository, so the CLI bundle resolves its external packages from node_modules.
const OUT = join(ROOT, 'dist', `.bundle-test-${process.pid}`);

beforeAll(async () => {
  await run(process.execPath, ['scripts/build-main.mjs', '--outdir', OUT], { cwd: ROOT });
}, 60_000);

afterAll(() => rmSync(OUT, { recursive: true, force: true }));

/** Loads the preload bundle the way a sandboxed renderer does: `require` knows only 'electron'. */
function loadPreload(
  invoke: (channel: string, ...args: unknown[]) => Promise<unknown>,
  listeners = new Map<string, (event: unknown, ...args: unknown[]) => void>(),
) {
  const exposed: Record<string, unknown> = {};
  const electron = {
    contextBridge: { exposeInMainWorld: (key: string, api: unknown) => (exposed[key] = api) },
    ipcRenderer: { invoke, on: (channel: string, listener: (event: unknown, ...args: unknown[]) => void) => void listeners.set(channel, listener) },
  };
  const requireInSandbox = (id: string): unknown => {
    if (id === 'electron') return electron;
    throw new Error(`a sandboxed preload cannot require "${id}"`);
  };
  const module = { exports: {} };
  compileFunction(readFileSync(join(OUT, 'preload.cjs'), 'utf8'), ['require', 'module', 'exports'])(requireInSandbox, module, module.exports);
  return exposed;
}

describe('SEC-03 main-process bundles (scripts/build-main.mjs)', () => {
  it('bundles a small preload that needs only electron and exposes only window.yukta and window.yuktaDesktop', async () => {
    expect(statSync(join(OUT, 'preload.cjs')).size).toBeLessThan(20_000);
    const calls: string[] = [];
    const exposed = loadPreload(async (channel) => {
      calls.push(channel);
      return { ok: true, value: channel };
    });
    expect(Object.keys(exposed)).toEqual(['yukta', 'yuktaDesktop']);
    expect(Object.keys(exposed.yuktaDesktop as object).sort()).toEqual([
      'connect',
      'disconnect',
      'host',
      'nativeEdit',
      'onCommand',
      'onOpenFile',
      'openFileDialog',
    ]);
    const bridge = exposed.yukta as YuktaBridge;
    expect(Object.keys(bridge).sort()).toEqual(['invoke', 'subscribe']);
    expect(await bridge.invoke('nope', {})).toMatchObject({ ok: false, error: { code: 'UNKNOWN_OPERATION' } });
    expect(calls).toEqual([]);
    for (const name of OPERATION_NAMES) expect(await bridge.invoke(name, {})).toEqual({ ok: true, value: `yukta:op:${name}` });
  });

  it('lets only command ids of the table through the desktop bridge (STU-08)', () => {
    const listeners = new Map<string, (event: unknown, ...args: unknown[]) => void>();
    const exposed = loadPreload(async () => ({ ok: true, value: null }), listeners);
    const got: string[] = [];
    (exposed.yuktaDesktop as DesktopBridge).onCommand((id) => got.push(id));
    for (const id of ['file.save', '__proto__', 'toString', 'file.save ', 42, null, 'run.stop-kill']) listeners.get('yukta:desktop:command')!({}, id);
    expect(got).toEqual(['file.save', 'run.stop-kill']);
  });

  it("keeps electron, native modules, the HTTP packages and ws (the workers' listener, SCL-01) out of the Electron main bundle", () => {
    const code = readFileSync(join(OUT, 'electron.cjs'), 'utf8');
    // Real require calls only: ajv (through the MCP SDK) carries `'require("ajv/dist/runtime/…")'` as code strings for its standalone mode.
    const required = new Set([...code.matchAll(/(?<!['"`])require\("([^"]+)"\)/g)].map((m) => m[1]!));
    const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
    const packages = [...required].filter((id) => !builtins.has(id));
    // pg-native: pg's optional libpq binding, required only if `pg.native` is used (never: DUR-04 uses pg's JavaScript client).
    expect(packages.sort()).toEqual(['@fastify/static', 'better-sqlite3', 'electron', 'fastify', 'pg-native', 'ws']);
  });

  it('builds a CLI that runs', async () => {
    const { stdout } = await run(process.execPath, [join(OUT, 'cli.mjs'), 'validate', join(ROOT, 'main/cli/test-fixtures/hello.json')], { cwd: ROOT });
    expect(stdout).toBe('valid\n');
  });
});

const loadElectronMain = (fake: FakeElectron) => loadElectronBundle(fake, OUT);

describe('SEC-03 desktop main process (bundle, fake Electron)', () => {
  const userData = mkdtempSync(join(tmpdir(), 'yukta-userdata-'));
  const ENV = ['YUKTA_DATA_DIR', 'YUKTA_DEV_SERVER_URL', 'YUKTA_HTTP_ENABLED'] as const;
  const saved = ENV.map((name) => [name, process.env[name]] as const);
  afterAll(() => {
    for (const [name, value] of saved) if (value !== undefined) process.env[name] = value;
    rmSync(userData, { recursive: true, force: true });
  });

  it('starts hardened, serves the StudioApi over IPC from userData, and closes the host on quit', async () => {
    for (const name of ENV) delete process.env[name];
    const fake = fakeElectron(userData);
    loadElectronMain(fake);
    expect(fake.sandboxEnabled).toBe(true);
    expect(fake.schemes).toEqual([{ scheme: 'app', privileges: expect.objectContaining({ standard: true, secure: true }) }]);

    fake.ready();
    const window = await fake.windowCreated;
    expect(window.options.webPreferences).toMatchObject({ preload: join(OUT, 'preload.cjs'), sandbox: true, contextIsolation: true, nodeIntegration: false });
    expect(window.url).toBe('app://studio/index.html');

    const sender = { id: 1, send: () => undefined, isDestroyed: () => false, once: () => undefined };
    const save = fake.ipcHandlers.get('yukta:op:workflows.save')!;
    expect(await save({ sender, senderFrame: { url: 'app://studio/index.html', parent: null } }, { definition: helloWorkflow() })).toMatchObject({ ok: true });
    expect(existsSync(join(userData, 'yukta.db'))).toBe(true); // SQLite is the desktop default (DEF-01)
    expect(await save({ sender, senderFrame: { url: 'https://evil.example/', parent: null } }, {})).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });

    let granted: unknown;
    fake.session.permissionRequest!(null, 'media', (g: boolean) => (granted = g));
    expect(granted).toBe(false);
    expect(fake.session.permissionCheck!()).toBe(false);
    let verdict: unknown;
    fake.session.beforeRequest!({ url: 'https://cdn.example/lib.js' }, (v: unknown) => (verdict = v));
    expect(verdict).toEqual({ cancel: true });
    expect((await fake.session.protocolHandler!(new Request('app://studio/..%2f..%2fpackage.json'))).status).toBe(404);

    expect(fake.session.devicePermission!({ deviceType: 'usb' })).toBe(false);
    let headers: { responseHeaders: Record<string, string[]> } | undefined;
    fake.session.headersReceived!({ responseHeaders: {} }, (v: typeof headers) => (headers = v));
    expect(headers!.responseHeaders['Content-Security-Policy']![0]).not.toContain('unsafe-eval');

    // Runtime guard (web-contents-created): the studio's own window was admitted and hardened…
    expect(window.webContents.closed).toBe(false);
    expect(window.webContents.openHandler!({ url: 'https://example.com/', disposition: 'new-window' })).toEqual({ action: 'deny' });
    expect(fake.openedExternally).toEqual([]);
    expect(window.webContents.openHandler!({ url: 'https://example.com/docs', disposition: 'foreground-tab' })).toEqual({ action: 'deny' });
    expect(fake.openedExternally).toEqual(['https://example.com/docs']);
    // …any other window, webview or BrowserView that appears is closed; DevTools ('remote') is left alone.
    for (const [type, closed] of [
      ['window', true],
      ['webview', true],
      ['browserView', true],
      ['remote', false],
    ] as const) {
      const contents = fakeContents(type);
      fake.app.emit('web-contents-created', {}, contents);
      expect(contents.closed, type).toBe(closed);
      const away = { url: 'https://evil.example/', preventDefault: vi.fn() };
      contents.emit('will-navigate', away);
      expect(away.preventDefault).toHaveBeenCalled();
      const inside = { url: 'app://studio/index.html#/runs', preventDefault: vi.fn() };
      contents.emit('will-navigate', inside);
      expect(inside.preventDefault).not.toHaveBeenCalled();
      const webview = { preventDefault: vi.fn() };
      contents.emit('will-attach-webview', webview, { nodeIntegration: true, preload: '/tmp/x.js' });
      expect(webview.preventDefault).toHaveBeenCalled();
    }

    (fake.module.app as { quit(): void }).quit();
    await fake.quitCompleted;
    expect(fake.ipcHandlers.size).toBe(0);
  });

  it('opens the HTTP API on 127.0.0.1 only when YUKTA_HTTP_ENABLED=1', async () => {
    for (const name of ENV) delete process.env[name];
    process.env.YUKTA_HTTP_ENABLED = '1';
    process.env.YUKTA_HTTP_PORT = '0';
    const logged: string[] = [];
    const log = vi.spyOn(console, 'log').mockImplementation((line: string) => void logged.push(line));
    const fake = fakeElectron(userData);
    loadElectronMain(fake);
    fake.ready();
    await fake.windowCreated;
    log.mockRestore();
    delete process.env.YUKTA_HTTP_ENABLED;
    delete process.env.YUKTA_HTTP_PORT;
    const url = /HTTP API at (http:\/\/127\.0\.0\.1:\d+)/.exec(logged.join('\n'))?.[1];
    expect(url, logged.join('\n')).toBeDefined();
    expect((await fetch(`${url}/api/workflows`)).status).toBe(200);
    (fake.module.app as { quit(): void }).quit();
    await fake.quitCompleted;
    await expect(fetch(`${url}/api/workflows`)).rejects.toThrow();
  });
});

describe('CFG-01 ADM-01 desktop main process: settings and app quit (bundle, fake Electron)', () => {
  const folders: string[] = [];
  afterAll(() => folders.forEach((f) => rmSync(f, { recursive: true, force: true })));
  const sender = { id: 1, send: () => undefined, isDestroyed: () => false, once: () => undefined };
  const frame = { sender, senderFrame: { url: 'app://studio/index.html', parent: null } };

  function userDataWith(settings: Record<string, unknown>): string {
    const dir = mkdtempSync(join(tmpdir(), 'yukta-userdata-'));
    folders.push(dir);
    writeFileSync(join(dir, 'settings.json'), JSON.stringify(settings));
    return dir;
  }

  function started(userData: string): FakeElectron {
    for (const name of ['YUKTA_DATA_DIR', 'YUKTA_DEV_SERVER_URL', 'YUKTA_HTTP_ENABLED']) delete process.env[name];
    const fake = fakeElectron(userData);
    loadElectronMain(fake);
    fake.ready();
    return fake;
  }

  it('shows a refused setting in an error box and exits 1 instead of opening with defaults', async () => {
    const userData = userDataWith({ 'yukta.execution.max-concurent': 1 });
    const fake = started(userData);
    expect(await fake.exited).toBe(1);
    expect(fake.errorBoxes).toEqual([
      {
        title: 'Yukta Studio cannot start',
        content: `unknown setting "yukta.execution.max-concurent" in settings file ${join(userData, 'settings.json')}: did you mean yukta.execution.max-concurrent?\n\nFix the setting and start Yukta Studio again.`,
      },
    ]);
    expect(fake.windows).toEqual([]);
    expect(fake.ipcHandlers.size).toBe(0);
  });

  it('on quit refuses new starts (reason=shutdown) while a running run may still finish, then flushes the stores', async () => {
    const userData = userDataWith({ 'yukta.execution.shutdown-timeout': '1h' });
    const fake = started(userData);
    await fake.windowCreated;
    const invoke = (op: string, input: unknown) =>
      fake.ipcHandlers.get(`yukta:op:${op}`)!(frame, input) as Promise<{ ok: boolean; value?: unknown; error?: { code: string } }>;
    const definition = JSON.parse(readFileSync(join(ROOT, 'main/cli/test-fixtures/wait-signal.json'), 'utf8')) as Record<string, unknown>;
    expect(await invoke('workflows.save', { definition })).toMatchObject({ ok: true });
    const { executionId } = (await invoke('runs.start', { workflowId: 'approve' })).value as { executionId: string };

    let quit = false;
    void fake.quitCompleted.then(() => (quit = true));
    fake.dialogAnswers.push(0); // STU-08: a run is active, so quitting asks first; the user picks Drain
    (fake.module.app as { quit(): void }).quit();
    await vi.waitFor(async () => expect(((await invoke('scheduler.get', {})).value as { shuttingDown: boolean }).shuttingDown).toBe(true));
    expect(fake.dialogs).toHaveLength(1);
    expect(await invoke('runs.start', { workflowId: 'approve' })).toMatchObject({ ok: false, error: { code: 'UNAVAILABLE' } });
    expect(((await invoke('metrics.get', {})).value as { rejected: Record<string, number> }).rejected.shutdown).toBe(1);
    expect(quit).toBe(false);
    expect(await invoke('signals.send', { executionId, nodeId: 'ok' })).toMatchObject({ ok: true });
    await fake.quitCompleted;
    expect(fake.ipcHandlers.size).toBe(0);

    const reopened = new StudioHost({ dataDir: userData, settings: parseHostSettings({}), env: {} });
    try {
      await reopened.ready;
      // Drained (CTL-03): its message in flight got its signal and went to the end; a drained run ends STOPPED.
      expect(await reopened.invoke('runs.get', { executionId }, LOCAL_UI_CALLER)).toMatchObject({ ok: true, value: { status: 'STOPPED' } });
    } finally {
      await reopened.close();
    }
  });
});
