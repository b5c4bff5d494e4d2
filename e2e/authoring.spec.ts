import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from '@playwright/test';
import { StudioPage } from './studio-page';

function uniqueId(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e6).toString(36)}`;
}

interface Definition {
  workflowId: string;
  nodes: Array<{ nodeId: string; type: string; config: Record<string, unknown>; position?: { x: number; y: number } }>;
  edges: Array<{ source: string; target: string; sourcePort?: string }>;
}

async function stored(page: Page, workflowId: string): Promise<Definition> {
  const response = await page.request.get(`/api/workflows/default/${workflowId}`);
  expect(response.ok(), await response.text()).toBe(true);
  return ((await response.json()) as { definition: Definition }).definition;
}

/** Clicks an empty spot of the canvas: focus leaves the inspector, so canvas shortcuts apply. */
async function focusCanvas(studio: StudioPage): Promise<void> {
  await studio.canvas().click({ position: { x: 450, y: 560 } });
}

async function selectNode(studio: StudioPage, nodeId: string): Promise<void> {
  await studio.node(nodeId).click();
  await expect(studio.page.getByTestId('inspector-node-id')).toHaveValue(nodeId);
}

/** trigger → router (yes | default) → two transforms → two consoles, transform_1 routing its errors. */
async function buildRouterWorkflow(studio: StudioPage): Promise<void> {
  const { page } = studio;
  await studio.dropNode('API_TRIGGER', { x: 100, y: 250 }, 'api_trigger_1');
  await studio.dropNode('ROUTER', { x: 330, y: 250 }, 'router_1');
  await studio.dropNode('TRANSFORM', { x: 560, y: 130 }, 'transform_1');
  await studio.dropNode('TRANSFORM', { x: 560, y: 380 }, 'transform_2');
  await studio.dropNode('CONSOLE_TERMINAL', { x: 800, y: 130 }, 'console_terminal_1');
  await studio.dropNode('CONSOLE_TERMINAL', { x: 800, y: 380 }, 'console_terminal_2');
  await studio.connect('api_trigger_1', 'router_1');
  await studio.connect('router_1', 'transform_1', 'yes');
  await studio.connect('router_1', 'transform_2', 'default');
  await expect(studio.edges()).toHaveCount(3);

  // transform_1 routes its errors: the engine policy form adds the `error` port to the node.
  await selectNode(studio, 'transform_1');
  await page.getByTestId('engine-policy').locator('summary').click();
  await page.getByTestId('field-engine.onError').selectOption('ROUTE');
  await expect(page.getByTestId('handle-transform_1-source-error')).toBeVisible();
  await focusCanvas(studio);

  await studio.connect('transform_1', 'console_terminal_1');
  await studio.connect('transform_2', 'console_terminal_1');
  await studio.connect('transform_1', 'console_terminal_2', 'error');
  await expect(studio.edges()).toHaveCount(6);
  await expect(studio.edge('transform_1', 'console_terminal_2', 'error')).toBeAttached();
  await page.getByTestId('problems-tab').click();
  await expect(page.getByTestId('problems-empty')).toBeVisible();
}

test.describe('authoring journey', () => {
  test('STU-01/STU-02: build a 6-node ROUTER workflow with an error route, undo/redo, save with note, diff, restore, export and import', async ({ page }) => {
    const studio = new StudioPage(page);
    const workflowId = uniqueId('stu02');
    await studio.openNew();
    await buildRouterWorkflow(studio);

    // Undo and redo three steps (the last three connections), from the keyboard.
    for (let i = 0; i < 3; i++) await page.keyboard.press('Control+z');
    await expect(studio.edges()).toHaveCount(3);
    await expect(studio.edge('transform_1', 'console_terminal_2', 'error')).toHaveCount(0);
    for (let i = 0; i < 3; i++) await page.keyboard.press('Control+Shift+z');
    await expect(studio.edges()).toHaveCount(6);
    await expect(studio.edge('transform_1', 'console_terminal_2', 'error')).toBeAttached();

    // Save with a note.
    await studio.setWorkflowId(workflowId);
    await page.getByTestId('save-with-note-button').click();
    await page.getByTestId('save-note-input').fill('first cut: router and error route');
    await page.getByTestId('save-note-submit').click();
    await expect(page.getByTestId('save-status')).toHaveText('Saved');
    const v1 = await stored(page, workflowId);
    expect(v1.nodes).toHaveLength(6);

    // Change one config, save again (Ctrl+S).
    await selectNode(studio, 'transform_2');
    await page.getByTestId('field-mode').selectOption('replace');
    await expect(page.getByTestId('unsaved-dot')).toBeVisible();
    await page.keyboard.press('Control+s');
    await expect(page.getByTestId('save-status')).toHaveText('Saved');

    // Versions: two, newest first, the note kept; compare them on the canvas.
    await page.getByTestId('versions-tab').click();
    const rows = page.getByTestId('versions-list').locator('[data-testid^="version-row-"]');
    await expect(rows).toHaveCount(2);
    const first = (await rows.nth(1).getAttribute('data-version'))!;
    await expect(page.getByTestId(`version-note-${first}`)).toHaveText('first cut: router and error route');
    await rows.nth(0).getByRole('checkbox').check();
    await rows.nth(1).getByRole('checkbox').check();
    await page.getByTestId('versions-compare').click();
    await expect(page.getByTestId('diff-banner')).toBeVisible();
    await expect(studio.canvas()).toHaveAttribute('data-mode', 'diff');
    // Exactly that node is marked; nothing added or removed.
    await expect(page.locator('[data-diff="changed"]')).toHaveCount(1);
    await expect(studio.node('transform_2')).toHaveAttribute('data-diff', 'changed');
    await expect(page.locator('[data-diff="added"], [data-diff="removed"]')).toHaveCount(0);
    for (const id of ['api_trigger_1', 'router_1', 'transform_1', 'console_terminal_1', 'console_terminal_2'])
      await expect(studio.node(id)).toHaveAttribute('data-diff', 'unchanged');
    const change = page.getByTestId('diff-change-transform_2-config.mode');
    await expect(change.locator('td').nth(0)).toHaveText('"merge"');
    await expect(change.locator('td').nth(1)).toHaveText('"replace"');
    await page.getByTestId('diff-exit').click();
    await expect(studio.canvas()).toHaveAttribute('data-mode', 'edit');

    // Restore v1: a new current version with v1's graph.
    await page.getByTestId(`version-restore-${first}`).click();
    await page.getByRole('alertdialog').getByRole('button', { name: 'Restore' }).click();
    await expect(page.getByTestId(`version-row-${first}`)).toHaveAttribute('data-current', 'true');
    await selectNode(studio, 'transform_2');
    await expect(page.getByTestId('field-mode')).toHaveValue('merge');
    expect((await stored(page, workflowId)).nodes).toEqual(v1.nodes);

    // Export, then import into a new workflow: the graphs are equal.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-button').click()]);
    expect(download.suggestedFilename()).toBe(`${workflowId}.json`);
    const exportedPath = await download.path();
    const exported = JSON.parse(await readFile(exportedPath, 'utf8')) as Definition;
    expect(exported.nodes).toEqual(v1.nodes);

    await page.getByTestId('workflow-picker').selectOption('__new__');
    await expect(page.getByTestId('canvas-empty')).toBeVisible();
    const [chooser] = await Promise.all([page.waitForEvent('filechooser'), page.getByTestId('import-button').click()]);
    await chooser.setFiles(exportedPath);
    await expect(studio.node('router_1')).toBeVisible();
    await expect(studio.edges()).toHaveCount(6);
    await studio.setWorkflowId(`${workflowId}-copy`);
    await page.keyboard.press('Control+s');
    await expect(page.getByTestId('save-status')).toHaveText('Saved');
    const copy = await stored(page, `${workflowId}-copy`);
    const original = await stored(page, workflowId);
    expect(copy.nodes).toEqual(original.nodes);
    expect(copy.edges).toEqual(original.edges);
  });

  test('STU-01: shift-click and box select, copy/paste, duplicate, delete, auto-layout and Ctrl+K', async ({ page }) => {
    const studio = new StudioPage(page);
    await studio.openNew();
    await studio.dropNode('API_TRIGGER', { x: 150, y: 200 }, 'api_trigger_1');
    await studio.dropNode('TRANSFORM', { x: 420, y: 200 }, 'transform_1');
    await studio.connect('api_trigger_1', 'transform_1');

    // Shift-click selects both; Ctrl+C / Ctrl+V pastes copies with fresh ids and their edge.
    await studio.node('api_trigger_1').click();
    await studio.node('transform_1').click({ modifiers: ['Shift'] });
    await page.keyboard.press('Control+c');
    await page.keyboard.press('Control+v');
    await expect(studio.node('api_trigger_2')).toBeVisible();
    await expect(studio.node('transform_2')).toBeVisible();
    await expect(studio.edge('api_trigger_2', 'transform_2')).toBeAttached();
    await expect(studio.edges()).toHaveCount(2);

    // Box select (toolbar toggle): a box touching only the pasted pair (below the originals), then one
    // Delete removes both with their edge, and one undo brings them back.
    const original = (await studio.node('transform_1').boundingBox())!;
    const pasted = (await studio.node('transform_2').boundingBox())!;
    const trigger = (await studio.node('api_trigger_2').boundingBox())!;
    await page.getByTestId('box-select-toggle').click();
    const top = original.y + original.height + 4;
    await page.mouse.move(trigger.x - 20, top);
    await page.mouse.down();
    await page.mouse.move((trigger.x + pasted.x) / 2, top + 10, { steps: 5 });
    await page.mouse.move(pasted.x + pasted.width + 20, pasted.y + pasted.height + 20, { steps: 5 });
    await page.mouse.up();
    await page.getByTestId('box-select-toggle').click();
    await page.keyboard.press('Delete');
    await expect(studio.node('api_trigger_2')).toHaveCount(0);
    await expect(studio.node('transform_2')).toHaveCount(0);
    await expect(studio.node('transform_1')).toBeVisible();
    await expect(studio.edges()).toHaveCount(1);
    await page.keyboard.press('Control+z');
    await expect(studio.node('api_trigger_2')).toBeVisible();
    await expect(studio.edges()).toHaveCount(2);

    // Duplicate, then auto-layout puts every trigger left of its transform.
    await studio.node('transform_2').click();
    await page.keyboard.press('Control+d');
    await expect(studio.node('transform_3')).toBeVisible();
    await page.getByTestId('auto-layout-button').click();
    const left = async (id: string) => (await studio.node(id).boundingBox())!.x;
    expect(await left('api_trigger_1')).toBeLessThan(await left('transform_1'));
    expect(await left('api_trigger_2')).toBeLessThan(await left('transform_2'));

    // Ctrl+K: type, Enter selects the node.
    await focusCanvas(studio);
    await page.keyboard.press('Control+k');
    await page.getByTestId('node-search-input').fill('transform_3');
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('node-search')).toHaveCount(0);
    await expect(page.getByTestId('inspector-node-id')).toHaveValue('transform_3');

    // ? lists the shortcuts.
    await focusCanvas(studio);
    await page.keyboard.press('?');
    await expect(page.getByTestId('shortcuts-dialog')).toContainText('Jump to a node');
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('shortcuts-dialog')).toHaveCount(0);
  });

  test('DEF-02: an edge at fault carries a badge whose hover shows the rule and message', async ({ page }) => {
    const studio = new StudioPage(page);
    await studio.openNew();
    await studio.dropNode('API_TRIGGER', { x: 150, y: 220 }, 'api_trigger_1');
    await studio.dropNode('TRANSFORM', { x: 450, y: 120 }, 'transform_1');
    await studio.dropNode('TRANSFORM', { x: 450, y: 380 }, 'transform_2');
    await studio.connect('api_trigger_1', 'transform_1');
    await studio.connect('transform_1', 'transform_2');
    await studio.connect('transform_2', 'transform_1');
    const badge = page.getByTestId('edge-problem-transform_2:out->transform_1');
    await badge.hover();
    await expect(badge).toHaveAttribute('title', /^DEF-02\/cycle: the graph has a cycle/);
    await expect(page.getByTestId('edge-problem-api_trigger_1:out->transform_1')).toHaveCount(0);
  });
});
