import { expect, test } from '@playwright/test';
import { openWorkflow, seedWorkflow, uniqueId } from './debug-helpers';
import { StudioPage } from './studio-page';

// Issue 15 item 6: labels follow the data.
test('item 6: the session count and the picker follow save and restore; undo back to the saved graph is clean; the app bar never wraps at 1280 px', async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const studio = new StudioPage(page);
  const session = uniqueId('s6');
  expect((await request.post('/api/sessions', { data: { session } })).ok()).toBe(true);
  await page.goto(`/#/s/${session}`);
  await expect(page.getByTestId('session-picker')).toHaveValue(session);
  await expect(page.getByTestId('session-picker').locator('option:checked')).toHaveText(`${session} (0)`);

  // First save: the session counts 1 workflow, the picker names it with its node count.
  await studio.dropNode('API_TRIGGER', { x: 150, y: 200 }, 'api_trigger_1');
  await studio.dropNode('CONSOLE_TERMINAL', { x: 450, y: 200 }, 'console_terminal_1');
  await studio.connect('api_trigger_1', 'console_terminal_1');
  const workflowId = uniqueId('greeter');
  await studio.setWorkflowId(workflowId);
  await studio.save();
  await expect(page.getByTestId('save-status')).toHaveText('Saved');
  await expect(page.getByTestId('session-picker').locator('option:checked')).toHaveText(`${session} (1)`);
  await expect(page.getByTestId('workflow-picker').locator('option:checked')).toHaveText(`${workflowId} (2 nodes)`);

  // Undo back to the saved graph is clean.
  await studio.dropNode('TRANSFORM', { x: 300, y: 350 }, 'transform_1');
  await expect(page.getByTestId('save-status')).toHaveText('Unsaved changes');
  await page.keyboard.press('Control+z');
  await expect(page.getByTestId('save-status')).toHaveText('Saved');
  await expect(page.getByTestId('unsaved-dot')).toHaveCount(0);

  // A 3-node version saved, then the 2-node one restored: the picker says 2 nodes again.
  await studio.dropNode('TRANSFORM', { x: 300, y: 350 }, 'transform_1');
  await studio.save();
  await expect(page.getByTestId('workflow-picker').locator('option:checked')).toHaveText(`${workflowId} (3 nodes)`);
  await page.getByTestId('versions-tab').click();
  const oldest = page.locator('[data-testid^="version-restore-"]').last();
  await oldest.click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Restore' }).click();
  await expect(page.getByTestId('workflow-picker').locator('option:checked')).toHaveText(`${workflowId} (2 nodes)`);

  // The app bar keeps one line at 1280 px with a run shown (debug controls, inbox, theme).
  await page.getByTestId('run-button').click();
  await expect(page.getByTestId('run-banner')).toBeVisible();
  const bar = (await page.getByTestId('app-bar').boundingBox())!;
  expect(bar.height).toBeLessThan(52);
  const wrapped = await page.getByTestId('app-bar').evaluate((el) => el.scrollWidth > el.clientWidth + 1);
  expect(wrapped).toBe(false);
});

// Issue 15 item 7: examples on first launch.
test('item 7: the empty canvas offers "Open an example"; each opens as an unsaved copy that validates, and saves under a free id', async ({
  page,
  request,
}) => {
  await seedWorkflow(request, 'order-approval', [{ nodeId: 'x', type: 'API_TRIGGER' }]);
  await page.goto('/#/');
  await expect(page.getByTestId('canvas-empty')).toContainText('Drag a trigger from the palette');
  await page.getByRole('button', { name: 'Open an example' }).click();
  const dialog = page.getByRole('dialog', { name: 'Open an example' });
  for (const title of ['Order approval', 'HTTP fetch retry', 'Fan out aggregate', 'Cron digest', 'LLM triage'])
    await expect(dialog.getByRole('button', { name: new RegExp(title) })).toBeVisible();
  await dialog.getByRole('button', { name: /Order approval/ }).click();
  await expect(page.getByTestId('node-manager-approval')).toBeVisible();
  // A copy: "order-approval" is taken in this session, so it gets the next free id.
  await expect(page.getByTestId('workflow-id-input')).toHaveValue('order-approval-2');
  await expect(page.getByTestId('save-status')).toHaveText('Unsaved changes');
  await page.getByTestId('problems-tab').click();
  await expect(page.getByTestId('problems-list').locator('.severity-error')).toHaveCount(0);
  await page.getByTestId('save-button').click();
  await expect(page.getByTestId('save-status')).toHaveText('Saved');
  await openWorkflow(page, 'order-approval', 'x');
});
