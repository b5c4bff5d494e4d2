import { expect, test } from '@playwright/test';
import { openWorkflow, runWithPayload, seedWorkflow, uniqueId } from './debug-helpers';

const gate = [
  { nodeId: 'start', type: 'API_TRIGGER' },
  { nodeId: 'gate', type: 'WAIT_FOR_SIGNAL', config: { signal: 'manager', onReject: 'ROUTE' } },
  { nodeId: 'approved', type: 'RESULT_TERMINAL' },
  { nodeId: 'refused', type: 'RESULT_TERMINAL' },
];
const gateEdges = [
  { source: 'start', target: 'gate', sourcePort: 'out' },
  { source: 'gate', target: 'approved', sourcePort: 'out' },
  { source: 'gate', target: 'refused', sourcePort: 'rejected' },
];

// Issue 15 item 4: held and waiting are their own states on the node, the run and the run list.
test('item 4: a waiting node says "Waiting for approval (signal, n waiting)", never Running; approve with data in its inspector; the run row splits active and waiting time', async ({
  page,
  request,
}) => {
  const workflowId = uniqueId('i15-wait');
  await seedWorkflow(request, workflowId, gate, gateEdges);
  await openWorkflow(page, workflowId, 'gate');
  await runWithPayload(page, { order: 7 });

  const status = page.getByTestId('node-status-gate');
  await expect(status).toContainText('Waiting for approval');
  await expect(page.getByTestId('node-waiting-gate')).toHaveText('manager, 1 waiting');
  await expect(status).not.toContainText('Running');
  await expect(page.getByTestId('node-gate')).toHaveAttribute('data-hold', 'waiting');
  await expect(page.getByTestId('run-banner-waiting')).toContainText('Waiting for approval (1 waiting)');
  await page.getByTestId('runs-tab').click();
  await expect(page.locator('[data-testid^="run-hold-"]').first()).toContainText('Waiting for approval');

  // Approve and Reject sit on the node itself; the inspector has them with data and "Open in inbox".
  await expect(page.getByTestId('node-approve-gate')).toBeVisible();
  await expect(page.getByTestId('node-reject-gate')).toBeVisible();
  await page.getByTestId('node-gate').click({ position: { x: 60, y: 12 } });
  const block = page.getByTestId('inspector-approval');
  await expect(block.getByTestId('inspector-approval-state')).toContainText('manager, 1 waiting');
  await expect(block.getByTestId('inspector-approval-payload')).toContainText('order: 7');
  await block.getByTestId('inspector-open-inbox').click();
  await expect(page.getByTestId('inbox-panel')).toBeVisible();
  await page.getByTestId('inbox-close').click();
  await block.getByTestId('inspector-approval-data').fill('{"by": "ops"}');
  await block.getByTestId('inspector-approve').click();
  await expect(page.getByTestId('run-banner-status')).toHaveAttribute('data-status', 'SUCCESS');
  await expect(page.locator('[data-testid^="run-duration-"]').first()).toContainText('active ·');
  await expect(page.locator('[data-testid^="run-duration-"]').first()).toContainText('held');
});

test('item 4: Reject on the node takes the onReject route', async ({ page, request }) => {
  const workflowId = uniqueId('i15-reject');
  await seedWorkflow(request, workflowId, gate, gateEdges);
  await openWorkflow(page, workflowId, 'gate');
  await runWithPayload(page, { order: 8 });
  await page.getByTestId('node-reject-gate').click();
  await expect(page.getByTestId('run-banner-status')).toHaveAttribute('data-status', 'SUCCESS');
  await expect(page.getByTestId('node-counts-refused')).toHaveText('1 in · 0 out');
});

test('item 4: a node held at a breakpoint says "Paused at breakpoint", the banner names it, and its time held is shown apart once it ends', async ({
  page,
  request,
}) => {
  const workflowId = uniqueId('i15-held');
  await seedWorkflow(request, workflowId, [
    { nodeId: 'start', type: 'API_TRIGGER' },
    { nodeId: 'mark', type: 'TRANSFORM', config: { set: { seen: true }, mode: 'merge' } },
    { nodeId: 'done', type: 'RESULT_TERMINAL' },
  ]);
  await openWorkflow(page, workflowId, 'mark');
  await page.getByTestId('node-mark').click();
  await page.keyboard.press('F9');
  await runWithPayload(page, { n: 1 });
  const status = page.getByTestId('node-status-mark');
  await expect(status).toContainText('Paused at breakpoint');
  await expect(status).not.toContainText('Running');
  await expect(page.getByTestId('node-mark')).toHaveAttribute('data-hold', 'held');
  await expect(page.getByTestId('run-banner-held')).toContainText('Paused at breakpoint (mark)');
  await page.keyboard.press('F6');
  await expect(page.getByTestId('run-banner-status')).toHaveAttribute('data-status', 'SUCCESS');
  await expect(page.getByTestId('node-mark').getByTestId('node-duration-split')).toContainText('held');
  await expect(page.getByTestId('inspector-timing')).toContainText('active');
});

// Issue 15 item 8: breakpoints persist per workflow outside the definition, across reloads and restarts.
test('item 8: a breakpoint survives a reload, makes no version, and can be disabled or removed in the Breakpoints list', async ({ page, request }) => {
  const workflowId = uniqueId('i15-bps');
  await seedWorkflow(request, workflowId, [
    { nodeId: 'start', type: 'API_TRIGGER' },
    { nodeId: 'mark', type: 'TRANSFORM', config: { set: { seen: true }, mode: 'merge' } },
    { nodeId: 'done', type: 'RESULT_TERMINAL' },
  ]);
  await openWorkflow(page, workflowId, 'mark');
  await page.getByTestId('breakpoint-dot-mark').click();
  await expect(page.getByTestId('breakpoint-dot-mark')).toHaveAttribute('data-state', 'on');

  await page.reload();
  await expect(page.getByTestId('breakpoint-dot-mark')).toHaveAttribute('data-state', 'on');
  await page.getByTestId('versions-tab').click();
  await expect(page.getByTestId('versions-list').locator('li')).toHaveCount(1);

  await page.getByTestId('breakpoints-tab').click();
  await expect(page.getByTestId('breakpoints-tab')).toContainText('1');
  const row = page.getByTestId('breakpoint-row-mark');
  await expect(row).toContainText('before every message');
  await row.getByRole('switch').click();
  await expect(page.getByTestId('breakpoint-dot-mark')).toHaveAttribute('data-state', 'disabled');
  await page.reload();
  await expect(page.getByTestId('breakpoint-dot-mark')).toHaveAttribute('data-state', 'disabled');

  // A disabled breakpoint does not hold the run.
  await runWithPayload(page, { n: 1 });
  await expect(page.getByTestId('run-banner-status')).toHaveAttribute('data-status', 'SUCCESS');

  await page.getByTestId('breakpoints-tab').click();
  await page.getByTestId('breakpoint-remove-mark').click();
  await expect(page.getByTestId('breakpoints-empty')).toBeVisible();
  await page.reload();
  await expect(page.getByTestId('breakpoint-dot-mark')).toHaveAttribute('data-state', 'off');
});
