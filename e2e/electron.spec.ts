import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { _electron as electron, expect, test, type ElectronApplication, type Page } from '@playwright/test';

const SKIP_REASON = 'Electron binary not installed here (cannot be downloaded; npm start fetches it on a machine with the internet): skipped';
const MAIN_ENTRY = resolve('dist/main/electron.cjs');

/** The Electron executable, when the package's binary was downloaded (node_modules/electron/dist). */
function electronBinary(): string | null {
  try {
    const path: unknown = createRequire(import.meta.url)('electron');
    return typeof path === 'string' && existsSync(path) ? path : null;
  } catch {
    // `require('electron')` throws "Electron failed to install correctly" when the binary is missing.
    return null;
  }
}

const binary = electronBinary();

/**
 * Launches the built app (`npm start` does the same after fetching what it needs). The better-sqlite3 build
 * for Electron's ABI must be in .desktop-native/ (npm start fetches it); without it the app says so and exits.
 */
async function launch(args: string[] = []): Promise<{ app: ElectronApplication; window: Page; dataDir: string }> {
  expect(existsSync(MAIN_ENTRY), `${MAIN_ENTRY} is missing: run \`npm run build\` first`).toBe(true);
  const dataDir = mkdtempSync(join(tmpdir(), 'yukta-electron-e2e-'));
  const app = await electron.launch({
    executablePath: binary!,
    args: [MAIN_ENTRY, '--no-sandbox', '--disable-gpu', ...args],
    env: { ...process.env, YUKTA_DATA_DIR: dataDir, ELECTRON_DISABLE_SECURITY_WARNINGS: 'true' },
  });
  const window = await app.firstWindow();
  await expect(window.getByTestId('palette-item-API_TRIGGER')).toBeVisible();
  return { app, window, dataDir };
}

test.describe('desktop app (Electron)', () => {
  if (!binary) console.log(`[electron.spec] ${SKIP_REASON}`);
  test.skip(!binary, SKIP_REASON);

  test('STU-01/STU-08: launch — the window opens the studio over IPC, with the native menu', async () => {
    const { app, window } = await launch();
    try {
      await expect(window.getByTestId('canvas')).toBeVisible();
      // The preload bridge was found, so the renderer talks IPC, not HTTP; the desktop bridge is there too.
      await expect(window.locator('html')).toHaveAttribute('data-transport', 'ipc');
      expect(await window.evaluate(() => typeof (window as unknown as { yuktaDesktop?: unknown }).yuktaDesktop)).toBe('object');
      const labels = await app.evaluate(({ Menu }) => Menu.getApplicationMenu()?.items.map((i) => i.label));
      expect(labels).toEqual(expect.arrayContaining(['File', 'Edit', 'View', 'Run', 'Window', 'Help']));
    } finally {
      await app.close();
    }
  });

  test('STU-08: a menu command (View → Node palette) runs the studio command', async () => {
    const { app, window } = await launch();
    try {
      await expect(window.locator('main.workspace')).toHaveAttribute('data-palette', 'open');
      await app.evaluate(({ Menu }) => {
        const find = (items: Electron.MenuItem[]): Electron.MenuItem | undefined =>
          items.map((i) => (i.label === 'Node palette' ? i : i.submenu ? find(i.submenu.items) : undefined)).find(Boolean);
        find(Menu.getApplicationMenu()!.items)!.click();
      });
      await expect(window.locator('main.workspace')).toHaveAttribute('data-palette', 'closed');
    } finally {
      await app.close();
    }
  });

  test('STU-08: open file — a workflow file on the command line is imported into the current session', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'yukta-electron-file-'));
    const file = join(dir, 'opened.yukta.json');
    writeFileSync(
      file,
      JSON.stringify({
        workflowId: 'opened',
        nodes: [
          { nodeId: 'start', type: 'API_TRIGGER' },
          { nodeId: 'print', type: 'CONSOLE_TERMINAL' },
        ],
        edges: [{ source: 'start', target: 'print' }],
      }),
    );
    const { app, window } = await launch([file]);
    try {
      await expect(window.getByTestId('workflow-id-input')).toHaveValue('opened');
      await expect(window.getByTestId('node-print')).toBeVisible();
    } finally {
      await app.close();
    }
  });

  test('STU-05/STU-08: a notification click (its yukta:// link) opens the approval in the inbox', async () => {
    const { app, window } = await launch();
    try {
      const workflow = {
        workflowId: 'approve',
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
      const executionId = await window.evaluate(async (definition) => {
        const bridge = (window as unknown as { yukta: { invoke(op: string, input: unknown): Promise<{ ok: boolean; value: { executionId?: string } }> } })
          .yukta;
        await bridge.invoke('workflows.save', { definition });
        return (await bridge.invoke('runs.start', { workflowId: 'approve', payload: {} })).value.executionId!;
      }, workflow);
      await expect(window.getByTestId('inbox-count')).toHaveText('1');
      // A notification's click opens the approval's yukta:// link; the OS hands such links to the app like this.
      await app.evaluate(
        ({ app: electronApp }, link) => electronApp.emit('open-url', { preventDefault: () => undefined }, link),
        `yukta://approval/${executionId}/ok`,
      );
      await expect(window.getByTestId('inbox-panel')).toBeVisible();
      await expect(window.getByTestId('inbox-item-0')).toHaveAttribute('aria-selected', 'true');
      await expect(window.getByTestId('inbox-item-0')).toContainText(executionId.slice(0, 8));
    } finally {
      await app.close();
    }
  });
});
