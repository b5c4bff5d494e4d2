import { expect, test } from '@playwright/test';
import { openWorkflow, seedWorkflow, uniqueId } from './debug-helpers';

// Issue 15 item 1: a failure shows where the user looks.
test('item 1: a failed node shows an error strip, an Error block (message, kind, attempt n of m, when, input, Copy), ERROR log lines, "Failed at <node>" with Show node, and an expandable Runs row', async ({
  page,
  request,
}) => {
  const workflowId = uniqueId('i15-fail');
  await seedWorkflow(request, workflowId, [
    { nodeId: 'start', type: 'API_TRIGGER' },
    {
      nodeId: 'charge',
      type: 'SCRIPT',
      config: { code: 'throw new Error("card declined for " + payload.customer)', engine: { retry: { maxAttempts: 2, backoffMs: 10 } } },
    },
    { nodeId: 'done', type: 'RESULT_TERMINAL' },
  ]);
  await openWorkflow(page, workflowId, 'charge');
  await page.getByTestId('run-with-payload-button').click();
  await page.getByTestId('run-payload-input').fill('{"customer": "ada"}');
  await page.getByTestId('run-payload-submit').click();

  // On the node: the first line of the error.
  const strip = page.getByTestId('node-error-charge');
  await expect(strip).toContainText('card declined for ada');
  // The rest on keyboard focus (a Radix tooltip).
  await strip.focus();
  await expect(page.getByRole('tooltip')).toContainText('card declined for ada');

  // The run banner names the node; Show node selects it and the inspector opens on the Error block.
  const failure = page.getByTestId('run-banner-failure');
  await expect(failure).toContainText('Failed at charge:');
  await expect(failure).toContainText('card declined for ada');
  await page.getByTestId('run-banner-show-node').click();
  const block = page.getByTestId('inspector-error');
  await expect(block).toBeVisible();
  await expect(page.getByTestId('inspector-error-message')).toContainText('card declined for ada');
  await expect(page.getByTestId('inspector-error-kind')).toContainText('Error');
  await expect(page.getByTestId('inspector-error-attempt')).toHaveText(/^\d of 2$/);
  await expect(page.getByTestId('inspector-error-when')).not.toBeEmpty();
  await expect(page.getByTestId('inspector-error-input')).toContainText('customer: "ada"');
  await expect(block.getByRole('button', { name: /Copy/ })).toBeVisible();

  // Logs: an ERROR line for the failed attempt(s).
  await page.getByTestId('logs-tab').click();
  await expect(page.getByTestId('logs-panel')).toContainText(/attempt \d of 2 failed/);

  // The Runs row is a summary that expands to the full text.
  await page.getByTestId('runs-tab').click();
  const expand = page.locator('[data-testid^="run-expand-"]').first();
  await expand.click();
  await expect(page.locator('[data-testid^="run-error-full-"]').first()).toContainText('node "charge" failed');
  await expect(expand).toHaveAttribute('aria-expanded', 'true');
});
