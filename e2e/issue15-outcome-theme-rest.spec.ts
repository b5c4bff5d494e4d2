import { expect, test } from '@playwright/test';
import { openWorkflow, runWithPayload, seedWorkflow, uniqueId } from './debug-helpers';

// Issue 15 item 9: the approval outcome is readable.
test('item 9: after an approval with data, the recorded message shows decision, actor and data as a tree; Results shows it behind the Metadata switch', async ({
  page,
  request,
}) => {
  const workflowId = uniqueId('i15-outcome');
  await seedWorkflow(request, workflowId, [
    { nodeId: 'start', type: 'API_TRIGGER' },
    { nodeId: 'gate', type: 'WAIT_FOR_SIGNAL', config: { signal: 'manager' } },
    { nodeId: 'done', type: 'RESULT_TERMINAL' },
  ]);
  await openWorkflow(page, workflowId, 'gate');
  await runWithPayload(page, { order: 9 });
  await page.getByTestId('node-gate').click({ position: { x: 60, y: 12 } });
  await page.getByTestId('inspector-approval-data').fill('{"by": "ops", "limit": 500}');
  await page.getByTestId('inspector-approve').click();
  await expect(page.getByTestId('run-banner-status')).toHaveAttribute('data-status', 'SUCCESS');

  const outcome = page.getByTestId('recorded-metadata-0-signal');
  await expect(outcome).toContainText('Approved by http:local · signal “manager”');
  await expect(outcome).toContainText('by: "ops"');
  await expect(outcome).toContainText('limit: 500');

  await page.getByTestId('results-tab').click();
  await expect(page.getByTestId('result-metadata-0')).toHaveCount(0);
  await page.getByTestId('results-metadata-toggle').click();
  await expect(page.getByTestId('result-metadata-0-signal')).toContainText('Approved by http:local');
});

// Issue 15 item 10: theme switch; schedules visible.
test('item 10: the theme switch sets light or dark and keeps it over a reload; the Cron inspector reads the expression and lists 5 fires; the Scheduler tab lists the schedule', async ({
  page,
  request,
}) => {
  await page.goto('/#/');
  await page.getByTestId('theme-button').click();
  await page.getByRole('menuitemradio', { name: 'Dark' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.reload();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await page.getByTestId('theme-button').click();
  await page.getByRole('menuitemradio', { name: 'Light' }).click();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');

  const workflowId = uniqueId('i15-cron');
  await seedWorkflow(request, workflowId, [
    { nodeId: 'morning', type: 'CRON_TRIGGER', config: { expression: '0 8 * * 1-5', timezone: 'Europe/London', missedFires: 'SKIP', payload: {} } },
    { nodeId: 'print', type: 'CONSOLE_TERMINAL' },
  ]);
  await openWorkflow(page, workflowId, 'morning');
  await page.getByTestId('node-morning').click();
  await expect(page.getByTestId('cron-words')).toHaveText('At 08:00, Monday through Friday (Europe/London)');
  await expect(page.getByTestId('cron-next-fires').locator('li')).toHaveCount(5);
  await expect(page.getByTestId('cron-next-fires').locator('li').first()).toContainText('08:00 (Europe/London)');

  await page.getByTestId('scheduler-tab').click();
  const row = page.getByTestId(`cron-row-${workflowId}-morning`);
  await expect(row).toContainText('At 08:00, Monday through Friday');
  await expect(page.getByTestId(`cron-next-${workflowId}-morning`)).toContainText('08:00 (Europe/London)');
  await expect(page.getByTestId(`cron-last-${workflowId}-morning`)).toContainText('not fired yet');
});

// Issue 15 item 11: the rest.
test('item 11: status handles only with routeByStatus; Problems warn in plain words without blocking a save; the shortcut dialog opens at the top; the bottom panel resizes and remembers', async ({
  page,
  request,
}) => {
  const workflowId = uniqueId('i15-rest');
  await seedWorkflow(
    request,
    workflowId,
    [
      { nodeId: 'start', type: 'API_TRIGGER' },
      { nodeId: 'call', type: 'HTTP_REQUEST', config: { url: 'https://example.com/' } },
      { nodeId: 'lonely', type: 'CONSOLE_TERMINAL' },
    ],
    [{ source: 'start', target: 'call', sourcePort: 'out' }],
  );
  await openWorkflow(page, workflowId, 'call');
  await expect(page.getByTestId('handle-call-source-out')).toBeVisible();
  await expect(page.getByTestId('handle-call-source-2xx')).toHaveCount(0);
  await page.getByTestId('node-call').click();
  await page.getByTestId('inspector-tab-json').click();
  await page.getByTestId('problems-tab').click();
  const problems = page.getByTestId('problems-list');
  await expect(problems).toContainText('Warning');
  await expect(problems).toContainText('Terminal "lonely" has no input, so no message ever reaches it.');
  // Warnings never block a save.
  await page.getByTestId('node-lonely').click();
  await page.getByTestId('inspector-label').fill('not wired yet');
  await page.getByTestId('save-button').click();
  await expect(page.getByTestId('save-status')).toHaveText('Saved');

  // The shortcut dialog (?) opens scrolled to its top, on a Radix dialog that Escape closes.
  await page.getByTestId('canvas').click({ position: { x: 600, y: 400 } });
  await page.keyboard.press('?');
  const dialog = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(dialog).toBeVisible();
  expect(await dialog.evaluate((el) => el.scrollTop)).toBe(0);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);

  // The bottom panel resizes from its top edge (keyboard here) and keeps its height over a reload.
  const panel = page.locator('.bottom-panel');
  const before = (await panel.boundingBox())!.height;
  await page.getByTestId('bottom-panel-resizer').focus();
  for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowUp');
  const after = (await panel.boundingBox())!.height;
  expect(after - before).toBeGreaterThan(80);
  await page.reload();
  await expect(page.getByTestId('node-call')).toBeVisible();
  expect(Math.round((await panel.boundingBox())!.height)).toBe(Math.round(after));
});

test('item 11: Delete workflow asks first and is refused while a run is going; Restart run, Stop node, and the Audit view (who did what, by run)', async ({
  page,
  request,
}) => {
  const workflowId = uniqueId('i15-actions');
  await seedWorkflow(request, workflowId, [
    { nodeId: 'start', type: 'API_TRIGGER' },
    { nodeId: 'gate', type: 'WAIT_FOR_SIGNAL', config: { signal: 'go' } },
    { nodeId: 'done', type: 'RESULT_TERMINAL' },
  ]);
  await openWorkflow(page, workflowId, 'gate');
  await runWithPayload(page, { n: 1 });
  await expect(page.getByTestId('node-waiting-gate')).toBeVisible();

  // Delete while the run waits: asked, then refused with the reason; nothing is deleted.
  await page.getByTestId('versions-tab').click();
  await page.getByTestId('workflow-delete').click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete workflow' }).click();
  await expect(page.getByTestId('save-error')).toContainText('still going');

  // Stop node ends the waiting node STOPPED; the run ends; Restart run starts a new run of it.
  await page.getByTestId('node-gate').click({ position: { x: 60, y: 12 } });
  await page.getByTestId('node-stop').click();
  await expect(page.getByTestId('node-gate')).toHaveAttribute('data-status', 'STOPPED');
  await expect(page.getByTestId('run-banner-restart')).toBeVisible();
  const firstRun = await page.getByTestId('run-banner').getAttribute('data-run');
  await page.getByTestId('run-banner-restart').click();
  await expect(page.getByTestId('run-banner')).not.toHaveAttribute('data-run', firstRun ?? '');
  await expect(page.getByTestId('node-waiting-gate')).toBeVisible();

  // The Audit view: who did what, filtered by run.
  await page.getByTestId('audit-tab').click();
  await page.getByTestId('audit-run-filter').selectOption({ value: firstRun ?? '' });
  const rows = page.getByTestId('audit-row');
  await expect(rows.filter({ hasText: 'StopNode' })).toHaveCount(1);
  await expect(rows.filter({ hasText: 'Restart' }).first()).toContainText('http:local');

  // Once the new run is stopped too, Delete asks and deletes; the canvas is a new workflow.
  await page.getByTestId('debug-stop').click();
  await expect(page.getByTestId('run-banner-status')).toHaveAttribute('data-status', 'CANCELLED');
  await page.getByTestId('versions-tab').click();
  await page.getByTestId('workflow-delete').click();
  await page.getByRole('alertdialog').getByRole('button', { name: 'Delete workflow' }).click();
  await expect(page.getByTestId('workflow-picker')).toHaveValue('__new__');
  await expect(page.getByTestId('workflow-picker')).not.toContainText(workflowId);
});
