import { expect, test } from '@playwright/test';
import { StudioPage } from './studio-page';

/** A workflow id no other test (or earlier run against the same server) uses. */
function uniqueId(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e6).toString(36)}`;
}

test.describe('first run journey', () => {
  test('STU-01: build trigger → transform → console from the palette, save, reload: graph is kept', async ({ page }) => {
    const studio = new StudioPage(page);
    const workflowId = uniqueId('stu01');
    await studio.openNew();
    await expect(page.getByTestId('canvas-empty')).toContainText('Drag a trigger from the palette');

    await studio.dropNode('API_TRIGGER', { x: 200, y: 200 }, 'api_trigger_1');
    await studio.dropNode('TRANSFORM', { x: 480, y: 200 }, 'transform_1');
    await studio.dropNode('CONSOLE_TERMINAL', { x: 760, y: 200 }, 'console_terminal_1');
    await expect(page.getByTestId('canvas-empty')).toHaveCount(0);

    await studio.connect('api_trigger_1', 'transform_1');
    await studio.connect('transform_1', 'console_terminal_1');
    await expect(studio.edges()).toHaveCount(2);
    await expect(studio.edge('api_trigger_1', 'transform_1')).toBeAttached();
    await expect(studio.edge('transform_1', 'console_terminal_1')).toBeAttached();

    await studio.setWorkflowId(workflowId);
    await expect(page.getByTestId('unsaved-dot')).toBeVisible();
    await studio.save();
    await expect(page.getByTestId('save-status')).toHaveText('Saved');
    await expect(page.getByTestId('unsaved-dot')).toHaveCount(0);
    await expect(page).toHaveURL(new RegExp(`#/w/default/${workflowId}$`));

    await page.reload();
    for (const id of ['api_trigger_1', 'transform_1', 'console_terminal_1']) await expect(studio.node(id)).toBeVisible();
    await expect(studio.edges()).toHaveCount(2);
    await expect(studio.edge('api_trigger_1', 'transform_1')).toBeAttached();
    await expect(studio.edge('transform_1', 'console_terminal_1')).toBeAttached();
    await expect(page.getByTestId('workflow-id-input')).toHaveValue(workflowId);
    await expect(page.getByTestId('workflow-picker')).toHaveValue(`default/${workflowId}`);
  });

  test('STU-03: run it: every node ends SUCCESS live on the canvas and the run list shows SUCCESS', async ({ page }) => {
    const studio = new StudioPage(page);
    const workflowId = uniqueId('stu03');
    await studio.openNew();
    await studio.dropNode('API_TRIGGER', { x: 200, y: 200 }, 'api_trigger_1');
    await studio.dropNode('TRANSFORM', { x: 480, y: 200 }, 'transform_1');
    await studio.dropNode('CONSOLE_TERMINAL', { x: 760, y: 200 }, 'console_terminal_1');
    await studio.connect('api_trigger_1', 'transform_1');
    await studio.connect('transform_1', 'console_terminal_1');
    await expect(studio.edges()).toHaveCount(2);
    await studio.setWorkflowId(workflowId);

    // Run saves first (the workflow is dirty), then starts it with an empty payload.
    for (const id of ['api_trigger_1', 'transform_1', 'console_terminal_1']) await expect(studio.node(id)).toHaveAttribute('data-status', 'NONE');
    await page.getByTestId('run-button').click();
    await expect(page.getByTestId('save-status')).toHaveText('Saved');
    for (const id of ['api_trigger_1', 'transform_1', 'console_terminal_1']) await expect(studio.node(id)).toHaveAttribute('data-status', 'SUCCESS');

    await page.getByTestId('runs-tab').click();
    const rows = page.getByTestId('runs-list').locator('[data-testid^="run-row-"]');
    await expect(rows).toHaveCount(1);
    await expect(rows.first()).toHaveAttribute('data-status', 'SUCCESS');
    await expect(rows.first()).toContainText('Success');

    // A second run with F5 appears on top of the list.
    await page.keyboard.press('F5');
    await expect(rows).toHaveCount(2);
    await expect(rows.first()).toHaveAttribute('data-status', 'SUCCESS');
    await expect(rows.nth(1)).toHaveAttribute('data-status', 'SUCCESS');
  });

  test('DEF-02: a cycle is marked on the nodes, listed in Problems, and Save is refused by the server', async ({ page }) => {
    const studio = new StudioPage(page);
    const workflowId = uniqueId('def02');
    await studio.openNew();
    await studio.dropNode('API_TRIGGER', { x: 150, y: 220 }, 'api_trigger_1');
    await studio.dropNode('TRANSFORM', { x: 450, y: 120 }, 'transform_1');
    await studio.dropNode('TRANSFORM', { x: 450, y: 360 }, 'transform_2');
    await studio.connect('api_trigger_1', 'transform_1');
    await studio.connect('transform_1', 'transform_2');
    await studio.connect('transform_2', 'transform_1');
    await expect(studio.edges()).toHaveCount(3);

    for (const id of ['transform_1', 'transform_2']) {
      const badge = page.getByTestId(`node-problem-${id}`);
      await expect(badge).toBeVisible();
      await expect(badge).toHaveAttribute('title', /cycle/);
    }
    await expect(page.getByTestId('node-problem-api_trigger_1')).toHaveCount(0);

    await page.getByTestId('problems-tab').click();
    const cycle = page.getByTestId('problems-list').getByTestId('problem-item').filter({ hasText: 'DEF-02/cycle' });
    await expect(cycle).toHaveCount(1);
    await expect(cycle).toContainText('transform_1');
    await expect(cycle).toContainText('transform_2');

    await studio.setWorkflowId(workflowId);
    await studio.save();
    await expect(page.getByTestId('save-error')).toContainText('cycle');
    await expect(page.getByTestId('unsaved-dot')).toBeVisible();
    await expect(studio.edges()).toHaveCount(3); // the graph is kept

    // Nothing was stored: the server does not know the workflow.
    const stored = await page.request.get(`/api/workflows/default/${workflowId}`);
    expect(stored.status()).toBe(404);
    const list = (await (await page.request.get('/api/workflows')).json()) as Array<{ workflowId: string }>;
    expect(list.map((w) => w.workflowId)).not.toContain(workflowId);
  });
});
