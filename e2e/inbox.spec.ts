import { expect, test } from '@playwright/test';
import { openWorkflow, runWithPayload, seedWorkflow, uniqueId } from './debug-helpers';

test('STU-05: a WAIT_FOR_SIGNAL run shows in the inbox (badge 1); approve with data (A) ends it SUCCESS with the data on the message; reject (R) takes the onReject route', async ({
  page,
  request,
}) => {
  const workflowId = uniqueId('stu05-inbox');
  await seedWorkflow(
    request,
    workflowId,
    [
      { nodeId: 'start', type: 'API_TRIGGER' },
      { nodeId: 'gate', type: 'WAIT_FOR_SIGNAL', config: { signal: 'manager', onReject: 'ROUTE' } },
      { nodeId: 'approved', type: 'RESULT_TERMINAL' },
      { nodeId: 'refused', type: 'RESULT_TERMINAL' },
    ],
    [
      { source: 'start', target: 'gate', sourcePort: 'out' },
      { source: 'gate', target: 'approved', sourcePort: 'out' },
      { source: 'gate', target: 'refused', sourcePort: 'rejected' },
    ],
  );
  await openWorkflow(page, workflowId, 'gate');
  await expect(page.getByTestId('inbox-count')).toHaveCount(0);

  await runWithPayload(page, { order: 7 });
  await expect(page.getByTestId('inbox-count')).toHaveText('1');
  await page.keyboard.press('Control+Shift+I');
  const inbox = page.getByTestId('inbox-panel');
  await expect(inbox).toBeVisible();
  await expect(inbox.getByTestId('inbox-item-0')).toHaveAttribute('aria-selected', 'true');
  await expect(inbox.getByTestId('inbox-item-0')).toContainText(workflowId);
  await expect(inbox.getByTestId('inbox-item-0')).toContainText('gate');
  await expect(inbox.getByTestId('inbox-payload')).toContainText('order: 7');

  // Data typed in the editor; A on the list approves with it.
  await inbox.getByTestId('inbox-data').fill('{"by": "ops"}');
  await inbox.getByTestId('inbox-item-0').click();
  await page.keyboard.press('a');
  await expect(inbox.getByTestId('inbox-empty')).toBeVisible();
  await expect(page.getByTestId('inbox-count')).toHaveCount(0);
  await expect(page.getByTestId('run-banner-status')).toHaveAttribute('data-status', 'SUCCESS');
  await expect(page.getByTestId('node-counts-approved')).toHaveText('1 in · 0 out');

  // The decision and its data are on the message the gate sent (its recorded output).
  await page.keyboard.press('Escape');
  await expect(inbox).toHaveCount(0);
  await page.getByTestId('node-gate').click();
  const metadata = page.getByTestId('recorded-metadata-0');
  // Issue 15 item 9: the decision reads as words and the data as a tree (not escaped JSON text).
  await expect(metadata.getByTestId('recorded-metadata-0-signal')).toContainText('Approved by http:local · signal “manager”');
  await expect(metadata).toContainText('by: "ops"');

  // A second run, rejected from the inbox, leaves on the rejected port.
  await runWithPayload(page, { order: 8 });
  await expect(page.getByTestId('inbox-count')).toHaveText('1');
  await page.getByTestId('inbox-button').click();
  await expect(inbox.getByTestId('inbox-payload')).toContainText('order: 8');
  await inbox.getByTestId('inbox-list').focus();
  await page.keyboard.press('r');
  await expect(page.getByTestId('inbox-count')).toHaveCount(0);
  await expect(page.getByTestId('run-banner-status')).toHaveAttribute('data-status', 'SUCCESS');
  await expect(page.getByTestId('node-counts-refused')).toHaveText('1 in · 0 out');
  await expect(page.getByTestId('node-counts-approved')).toHaveText('0 in · 0 out');
});
