import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DESKTOP_CHANNELS } from '../../shared/desktop/desktop-bridge';
import { parseHostSettings } from '../host/host-settings';
import { StudioHost } from '../host/studio-host';
import { createHttpServer, type StudioHttpServer } from '../http/http-server';
import { helloWorkflow } from '../http/test-workflows';
import { loadElectronBundle } from './test-support/bundle-support';
import { fakeElectron, type FakeElectron, type FakeMenuItem, type FakeWindow } from './test-support/fake-electron';
import { WINDOW_STATE_FILE } from './window-state';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const OUT = join(ROOT, 'dist', `.bundle-test-shell-${process.pid}`);
const TEAM_KEY = 'team-server-key-0123456789';
const WAITING = {
  workflowId: 'approve-me',
  nodes: [
    { nodeId: 't', type: 'API_TRIGGER' },
    { nodeId: 'ok', type: 'WAIT_FOR_SIGNAL', config: { signal: 'go' } },
    { nodeId: 'o', type: 'CONSOLE_TERMINAL' },
  ],
  edges: [
    { source: 't', target: 'ok' },
    { source: 'ok', target: 'o' },
  ],
};

beforeAll(async () => {
  await run(process.execPath, ['scripts/build-main.mjs', '--outdir', OUT], { cwd: ROOT });
}, 60_000);
afterAll(() => rmSync(OUT, { recursive: true, force: true }));

const trusted = { url: 'app://studio/index.html', parent: null };

/** Starts the real main bundle on the fake Electron with this argv, as `electron . <args>` would. */
async function launch(userData: string, args: string[] = []) {
  const saved = process.argv;
  process.argv = [process.execPath, ROOT, ...args];
  delete process.env.YUKTA_DATA_DIR;
  const fake = fakeElectron(userData, { appPath: ROOT });
  try {
    loadElectronBundle(fake, OUT);
  } finally {
    process.argv = saved;
  }
  fake.ready();
  const window = await fake.windowCreated;
  await vi.waitFor(() => expect(fake.menu).not.toBeNull());
  const ipc = (channel: string, arg?: unknown) =>
    fake.ipcHandlers.get(channel)!({ sender: window.webContents, senderFrame: trusted }, arg) as Promise<{ ok: boolean; value?: unknown }>;
  const op = async (name: string, input: unknown) => (await ipc(`yukta:op:${name}`, input)) as { ok: boolean; value: Record<string, unknown> };
  return { fake, window, ipc, op };
}

async function quit(fake: FakeElectron): Promise<void> {
  (fake.module.app as { quit(): void }).quit();
  await fake.quitCompleted;
}

const walk = (items: FakeMenuItem[]): FakeMenuItem[] => items.flatMap((i) => [i, ...walk(i.submenu ?? [])]);
const sentOn = (window: FakeWindow, channel: string) => window.sent.filter(([c]) => c === channel).map(([, ...args]) => args[0]);

describe('STU-08 desktop shell (the real main bundle on the fake Electron)', () => {
  const userData = mkdtempSync(join(tmpdir(), 'yukta-shell-'));
  const workflowFile = join(userData, 'orders.yukta.json');
  writeFileSync(workflowFile, JSON.stringify(helloWorkflow('orders')));
  afterAll(() => rmSync(userData, { recursive: true, force: true }));

  it('launch: sets the menu, sends a menu command to the window, opens the file on the command line once the page listens', async () => {
    const { fake, window, ipc } = await launch(userData, [workflowFile, '--some-chromium-switch']);
    expect(fake.menu!.map((m) => m.label).filter(Boolean)).toEqual(['File', 'Edit', 'View', 'Run', 'Window', 'Help']);
    walk(fake.menu!).find((i) => i.label === 'Save' && !i.submenu)!.click!();
    expect(sentOn(window, DESKTOP_CHANNELS.command)).toEqual(['file.save']);
    expect(sentOn(window, DESKTOP_CHANNELS.openFile)).toEqual([]); // held until the page listens
    expect(await ipc(DESKTOP_CHANNELS.filesReady)).toEqual({ ok: true, value: null });
    expect(sentOn(window, DESKTOP_CHANNELS.openFile)).toEqual([{ name: 'orders.yukta.json', text: JSON.stringify(helloWorkflow('orders')) }]);
    // …and it is in File → Open recent now.
    expect(
      walk(fake.menu!)
        .find((i) => i.label === 'Open recent')!
        .submenu!.map((i) => i.label),
    ).toEqual(['orders.yukta.json', undefined, 'Clear recent']);
    // A second launch hands over its files (relative to its own folder) and refuses hostile ones with the reason.
    fake.app.emit('second-instance', {}, [process.execPath, ROOT, 'orders.yukta.json', '../../etc/passwd.json'], userData);
    fake.app.emit('open-file', { preventDefault: () => undefined }, join(userData, 'missing.json'));
    expect(sentOn(window, DESKTOP_CHANNELS.openFile).slice(1)).toEqual([
      { name: 'orders.yukta.json', text: JSON.stringify(helloWorkflow('orders')) },
      { name: 'passwd.json', refused: 'a path with ".." (path traversal) is refused; give the file itself' },
      { name: 'missing.json', refused: 'the file does not exist' },
    ]);
    await quit(fake);
  });

  it('a notification click and a yukta:// link open the approval in the inbox; a hostile link is ignored', async () => {
    const { fake, window, op } = await launch(userData);
    expect((await op('workflows.save', { definition: WAITING })).ok).toBe(true);
    const started = await op('runs.start', { workflowId: 'approve-me', payload: {} });
    const executionId = String(started.value.executionId);
    await vi.waitFor(() => expect(fake.notifications).toHaveLength(1), { timeout: 10_000 });
    const { value: approvals } = (await op('approvals.list', {})) as unknown as { value: Array<{ messageId: string }> };
    const inbox = `app://studio/index.html#/inbox/${executionId}/ok/${encodeURIComponent(approvals[0]!.messageId)}`;
    fake.notifications[0]!.click();
    await vi.waitFor(() => expect(window.webContents.getURL()).toBe(inbox));
    window.webContents.url = 'app://studio/index.html#/';
    fake.app.emit('open-url', { preventDefault: () => undefined }, `yukta://approval/${executionId}/ok`);
    await vi.waitFor(() => expect(window.webContents.getURL()).toBe(inbox));
    window.webContents.url = 'app://studio/index.html#/';
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    fake.app.emit('open-url', { preventDefault: () => undefined }, 'javascript:alert(1)');
    fake.app.emit('open-url', { preventDefault: () => undefined }, `yukta://approval/${executionId}/../ok`);
    await vi.waitFor(() => expect(warn).toHaveBeenCalledTimes(2));
    warn.mockRestore();
    expect(window.webContents.getURL()).toBe('app://studio/index.html#/');

    // Quitting with that run still waiting asks; Kill stops it, then the app quits.
    fake.dialogAnswers.push(2);
    await quit(fake);
    expect(fake.dialogs[0]).toMatchObject({ buttons: ['Drain', 'Cancel runs', 'Kill', 'Keep running'], message: '1 run is still active. Stop it and quit?' });
  });

  it('Keep running leaves the app open; the window remembers its place for the next launch', async () => {
    const { fake, window, op } = await launch(userData);
    await op('runs.start', { workflowId: 'approve-me', payload: {} });
    fake.dialogAnswers.push(3, 2);
    (fake.module.app as { quit(): void }).quit();
    await vi.waitFor(() => expect(fake.dialogs).toHaveLength(1));
    expect(fake.ipcHandlers.size).toBeGreaterThan(0); // Keep running: still serving
    // Closing the last window is quitting too (not on macOS): the place is saved, the question asked again (Kill).
    const closing = { defaultPrevented: false, preventDefault: () => void (closing.defaultPrevented = true) };
    window.emit('close', closing);
    expect(closing.defaultPrevented).toBe(process.platform !== 'darwin');
    expect(JSON.parse(readFileSync(join(userData, WINDOW_STATE_FILE), 'utf8'))).toEqual({ x: 100, y: 80, width: 1400, height: 900, maximized: false });
    await fake.quitCompleted;
    expect(fake.dialogs).toHaveLength(2);
    writeFileSync(join(userData, WINDOW_STATE_FILE), JSON.stringify({ x: 300, y: 200, width: 1000, height: 700, maximized: true }));
    const next = await launch(userData);
    expect(next.window.options).toMatchObject({ x: 300, y: 200, width: 1000, height: 700 });
    expect(next.window.maximized).toBe(true);
    await quit(next.fake);
  });

  describe('Connect to server', () => {
    let team: StudioHost;
    let server: StudioHttpServer;
    let url: string;
    beforeAll(async () => {
      team = new StudioHost({ settings: parseHostSettings({ 'yukta.api-key': TEAM_KEY }), env: {} });
      await team.invoke('workflows.save', { definition: helloWorkflow('team-flow') }, { actor: 'test', role: 'ADMIN' });
      server = await createHttpServer({ host: team, bind: { port: 0 } });
      url = (await server.listen()).url;
    });
    afterAll(async () => {
      await server.close();
      await team.close();
    });

    it('checks the server with the key, keeps it encrypted, forwards app://studio/remote/api/ to it, and goes back to Local', async () => {
      const { fake, ipc } = await launch(userData);
      expect(await ipc(DESKTOP_CHANNELS.host)).toEqual({ ok: true, value: { kind: 'local' } });
      expect(await ipc(DESKTOP_CHANNELS.connect, { url, apiKey: 'wrong-key-0123456789abcdef' })).toEqual({
        ok: true,
        value: { ok: false, field: 'apiKey', message: 'the server refused the API key: the API key is not valid' },
      });
      expect(await ipc(DESKTOP_CHANNELS.connect, { url, apiKey: TEAM_KEY })).toEqual({ ok: true, value: { ok: true } });
      expect(await ipc(DESKTOP_CHANNELS.host)).toEqual({ ok: true, value: { kind: 'remote', url } });
      expect(readFileSync(join(userData, 'remote-server.json'), 'utf8')).not.toContain(TEAM_KEY);
      const listed = await fake.session.protocolHandler!(new Request('app://studio/remote/api/workflows?session=default'));
      expect(((await listed.json()) as Array<{ workflowId: string }>).map((w) => w.workflowId)).toEqual(['team-flow']);
      expect((await fake.session.protocolHandler!(new Request('app://studio/index.html'))).status).not.toBe(502);
      await quit(fake);
      // The choice survives a restart (the key decrypted by the keychain), until Back to Local.
      const again = await launch(userData);
      expect(await again.ipc(DESKTOP_CHANNELS.host)).toEqual({ ok: true, value: { kind: 'remote', url } });
      await again.ipc(DESKTOP_CHANNELS.disconnect);
      expect(await again.ipc(DESKTOP_CHANNELS.host)).toEqual({ ok: true, value: { kind: 'local' } });
      expect((await again.fake.session.protocolHandler!(new Request('app://studio/remote/api/workflows'))).status).toBe(404);
      await quit(again.fake);
    });
  });
});
