import { expect, test, type Page } from '@playwright/test';
import { COMMAND_IDS, type CommandId } from '../shared/desktop/commands';
import { openWorkflow, seedWorkflow, uniqueId } from './debug-helpers';

/**
 * STU-08 in Chromium (serve mode): the renderer side of the desktop shell. The page gets the desktop
 * bridge exactly as the preload exposes it (`window.yuktaDesktop`), driven here as main drives it: menu
 * commands by id, opened files. (The Electron side is covered by main/electron/*.test.ts on the fake
 * Electron and by e2e/electron.spec.ts where the binary exists.)
 */

interface DesktopDriver {
  fire(id: string): void;
  open(file: unknown): void;
  calls: string[];
}

async function installDesktopBridge(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const commands = new Set<(id: string) => void>();
    const files = new Set<(file: unknown) => void>();
    const calls: string[] = [];
    Object.assign(window, {
      yuktaDesktop: {
        onCommand: (l: (id: string) => void) => (commands.add(l), () => commands.delete(l)),
        onOpenFile: (l: (file: unknown) => void) => (files.add(l), () => files.delete(l)),
        nativeEdit: (edit: string) => void calls.push(`nativeEdit ${edit}`),
        openFileDialog: () => void calls.push('openFileDialog'),
        host: async () => ({ kind: 'local' }),
        connect: async () => ({ ok: true }),
        disconnect: async () => undefined,
      },
      __desktop: { fire: (id: string) => commands.forEach((l) => l(id)), open: (f: unknown) => files.forEach((l) => l(f)), calls },
    });
  });
}

const fired = new Set<CommandId>();
async function menu(page: Page, id: CommandId): Promise<void> {
  fired.add(id);
  await page.evaluate((command) => (window as unknown as { __desktop: DesktopDriver }).__desktop.fire(command), id);
}
const desktopCalls = (page: Page) => page.evaluate(() => (window as unknown as { __desktop: DesktopDriver }).__desktop.calls);
const nodeCount = (page: Page) => page.locator('.react-flow__node').count();
const viewport = (page: Page) => page.locator('.react-flow__viewport').getAttribute('style');

test.describe.configure({ mode: 'serial' });

test("STU-08: files, edit and view commands from the menu run the studio's own commands", async ({ page, request }) => {
  const workflowId = uniqueId('stu08-menu');
  await seedWorkflow(request, workflowId, [
    { nodeId: 'start', type: 'API_TRIGGER' },
    { nodeId: 'shape', type: 'TRANSFORM', config: { set: {}, mode: 'merge' } },
    { nodeId: 'print', type: 'CONSOLE_TERMINAL' },
  ]);
  await installDesktopBridge(page);
  await openWorkflow(page, workflowId, 'start');
  const workspace = page.locator('main.workspace');

  for (const [id, attribute] of [
    ['view.palette', 'data-palette'],
    ['view.inspector', 'data-inspector'],
  ] as const) {
    await menu(page, id);
    await expect(workspace).toHaveAttribute(attribute, 'closed');
    await menu(page, id);
    await expect(workspace).toHaveAttribute(attribute, 'open');
  }
  for (const [id, tab] of [
    ['view.runs', 'runs-tab'],
    ['view.logs', 'logs-tab'],
    ['view.problems', 'problems-tab'],
  ] as const) {
    await menu(page, id);
    await expect(page.getByTestId(tab)).toHaveAttribute('aria-selected', 'true');
  }
  await menu(page, 'view.inbox');
  await expect(page.getByTestId('inbox-panel')).toBeVisible();
  await menu(page, 'view.inbox');
  await expect(page.getByTestId('inbox-panel')).toHaveCount(0);
  for (const [id, dialog] of [
    ['view.jump-to-node', 'node-search'],
    ['help.shortcuts', 'shortcuts-dialog'],
    ['file.connect', 'connect-dialog'],
    ['file.settings', 'settings-close'],
  ] as const) {
    await menu(page, id);
    await expect(page.getByTestId(dialog)).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId(dialog)).toHaveCount(0);
  }

  const before = await viewport(page);
  await menu(page, 'view.zoom-in');
  await expect.poll(() => viewport(page)).not.toBe(before);
  const zoomed = await viewport(page);
  await menu(page, 'view.zoom-out');
  await expect.poll(() => viewport(page)).not.toBe(zoomed);
  const out = await viewport(page);
  await menu(page, 'view.fit');
  await expect.poll(() => viewport(page)).not.toBe(out);

  // Edit on the canvas: select all, copy, paste, undo, redo, delete, duplicate, cut.
  await menu(page, 'edit.select-all');
  await expect(page.locator('.react-flow__node.selected')).toHaveCount(3);
  await menu(page, 'edit.copy');
  await menu(page, 'edit.paste');
  await expect.poll(() => nodeCount(page)).toBe(6);
  await menu(page, 'edit.undo');
  await expect.poll(() => nodeCount(page)).toBe(3);
  await menu(page, 'edit.redo');
  await expect.poll(() => nodeCount(page)).toBe(6);
  await menu(page, 'edit.delete');
  await expect.poll(() => nodeCount(page)).toBe(3);
  await page.getByTestId('node-shape').click();
  await menu(page, 'edit.duplicate');
  await expect.poll(() => nodeCount(page)).toBe(4);
  await menu(page, 'edit.cut');
  await expect.poll(() => nodeCount(page)).toBe(3);
  // In a text field the same Edit items edit the field, natively, through the desktop app.
  await page.getByTestId('node-shape').click();
  await page.getByTestId('inspector-label').focus();
  await menu(page, 'edit.paste');
  await menu(page, 'edit.undo');
  expect(await desktopCalls(page)).toEqual(['nativeEdit paste', 'nativeEdit undo']);

  // Files: Save, Save as…, Export, Import (main's native dialog), New.
  await page.getByTestId('canvas').click({ position: { x: 20, y: 20 } });
  await menu(page, 'edit.select-all');
  await menu(page, 'edit.delete');
  await expect(page.getByTestId('save-status')).toHaveText('Unsaved changes');
  await menu(page, 'edit.undo');
  await page.getByTestId('node-print').click();
  await menu(page, 'edit.delete');
  await menu(page, 'file.save');
  await expect(page.getByTestId('save-status')).toHaveText('Saved');
  await menu(page, 'file.save-as');
  await page.getByTestId('save-as-input').fill(`${workflowId}-copy`);
  await page.getByTestId('save-as-submit').click();
  await expect(page).toHaveURL(new RegExp(`#/w/default/${workflowId}-copy$`));
  const download = page.waitForEvent('download');
  await menu(page, 'file.export');
  expect((await download).suggestedFilename()).toBe(`${workflowId}-copy.json`);
  await menu(page, 'file.import');
  expect((await desktopCalls(page)).slice(2)).toEqual(['openFileDialog']);
  await menu(page, 'file.new');
  await expect(page.getByTestId('canvas-empty')).toBeVisible();
  await expect(page.getByTestId('workflow-picker')).toHaveValue('__new__');
});

test('STU-08: Run menu: breakpoint, payload, run, step, pause/resume, stop ▸ drain, cancel, kill', async ({ page, request }) => {
  const stepId = uniqueId('stu08-step');
  await seedWorkflow(request, stepId, [
    { nodeId: 'start', type: 'API_TRIGGER' },
    { nodeId: 'mark', type: 'TRANSFORM', config: { set: { seen: true }, mode: 'merge' } },
    { nodeId: 'done', type: 'RESULT_TERMINAL' },
  ]);
  const waitId = uniqueId('stu08-wait');
  await seedWorkflow(request, waitId, [
    { nodeId: 'start', type: 'API_TRIGGER' },
    { nodeId: 'wait', type: 'DELAY', config: { ms: 600_000 } },
    { nodeId: 'print', type: 'CONSOLE_TERMINAL' },
  ]);
  const drainId = uniqueId('stu08-drain');
  await seedWorkflow(request, drainId, [
    { nodeId: 'start', type: 'API_TRIGGER' },
    { nodeId: 'wait', type: 'DELAY', config: { ms: 1500 } },
    { nodeId: 'print', type: 'CONSOLE_TERMINAL' },
  ]);
  await installDesktopBridge(page);
  const status = page.getByTestId('run-banner-status');

  await openWorkflow(page, stepId, 'mark');
  await page.getByTestId('node-mark').click();
  await menu(page, 'run.toggle-breakpoint');
  await expect(page.getByTestId('breakpoint-dot-mark')).toHaveAttribute('data-state', 'on');
  await menu(page, 'run.run-with-payload');
  await expect(page.getByTestId('run-payload-dialog')).toBeVisible();
  await page.getByTestId('run-payload-input').press('Escape');
  await expect(page.getByTestId('run-payload-dialog')).toHaveCount(0);
  await menu(page, 'run.run');
  await expect(page.getByTestId('node-mark')).toHaveAttribute('data-held', 'true');
  await menu(page, 'run.step');
  await expect(page.getByTestId('node-counts-done')).toHaveText('1 in · 0 out');
  await page.getByTestId('node-mark').click();
  await menu(page, 'run.toggle-breakpoint');
  await expect(page.getByTestId('breakpoint-dot-mark')).not.toHaveAttribute('data-state', 'on');

  await openWorkflow(page, waitId, 'wait');
  await menu(page, 'run.run');
  await expect(page.getByTestId('node-wait')).toHaveAttribute('data-status', 'RUNNING');
  await menu(page, 'run.pause-resume');
  await expect(page.getByTestId('debug-pause')).toHaveAttribute('data-holding', 'true');
  await menu(page, 'run.pause-resume');
  await expect(page.getByTestId('debug-pause')).toHaveAttribute('data-holding', 'false');
  await menu(page, 'run.stop');
  await expect(page.getByTestId('debug-stop-menu')).toBeVisible();
  await page.keyboard.press('Escape');
  await menu(page, 'run.stop-kill');
  await expect(status).toHaveAttribute('data-status', 'CANCELLED');
  await menu(page, 'run.run');
  await expect(page.getByTestId('node-wait')).toHaveAttribute('data-status', 'RUNNING');
  await menu(page, 'run.stop-cancel');
  await expect(status).toHaveAttribute('data-status', 'CANCELLED');

  await openWorkflow(page, drainId, 'wait');
  await menu(page, 'run.run');
  await expect(page.getByTestId('node-wait')).toHaveAttribute('data-status', 'RUNNING');
  await menu(page, 'run.stop-drain');
  await expect(status).toHaveAttribute('data-status', 'STOPPED');
});

test('STU-08: every command id was driven through the bridge', () => {
  expect([...fired].sort()).toEqual([...COMMAND_IDS].sort());
});

test('STU-08: a workflow file opened by main, or dropped on the window, is imported; a bad one is refused with the reason', async ({ page }) => {
  await installDesktopBridge(page);
  await page.goto('/#/');
  await expect(page.getByTestId('palette-item-API_TRIGGER')).toBeVisible();
  const definition = {
    workflowId: 'dropped',
    nodes: [
      { nodeId: 'start', type: 'API_TRIGGER', position: { x: 0, y: 0 } },
      { nodeId: 'print', type: 'CONSOLE_TERMINAL', position: { x: 260, y: 0 } },
    ],
    edges: [{ source: 'start', target: 'print' }],
  };
  const drop = async (name: string, text: string) => {
    const dataTransfer = await page.evaluateHandle(
      ([n, t]) => {
        const transfer = new DataTransfer();
        transfer.items.add(new File([t], n, { type: 'application/json' }));
        return transfer;
      },
      [name, text] as const,
    );
    await page.dispatchEvent('[data-testid="canvas"]', 'dragover', { dataTransfer });
    await page.dispatchEvent('[data-testid="canvas"]', 'drop', { dataTransfer });
  };
  await drop('dropped.yukta.json', JSON.stringify(definition));
  await expect(page.getByTestId('node-print')).toBeVisible();
  await expect(page.getByTestId('workflow-id-input')).toHaveValue('dropped');

  await drop('broken.json', '{"workflowId": "x", "nodes": [');
  await expect(page.getByTestId('import-error')).toContainText('Import of broken.json refused — IMPORT/not-json');
  await drop('huge.json', ' '.repeat(1024 * 1024 + 1));
  await expect(page.getByTestId('import-error')).toContainText('IMPORT/too-large');
  await expect(page.getByTestId('workflow-id-input')).toHaveValue('dropped');

  await page.evaluate((file) => (window as unknown as { __desktop: DesktopDriver }).__desktop.open(file), {
    name: 'opened.yukta.json',
    text: JSON.stringify({ ...definition, workflowId: 'opened' }),
  });
  await page.getByTestId('confirm-ok').click(); // the dropped workflow was never saved
  await expect(page.getByTestId('workflow-id-input')).toHaveValue('opened');
  await page.evaluate((file) => (window as unknown as { __desktop: DesktopDriver }).__desktop.open(file), {
    name: 'x.json',
    refused: 'only files can be opened, not a javascript: link',
  });
  await expect(page.getByTestId('import-error')).toHaveText('Opening x.json refused — only files can be opened, not a javascript: link. Nothing was changed.');
});
