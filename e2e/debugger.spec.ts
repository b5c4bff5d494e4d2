import { expect, test } from '@playwright/test';
import { openWorkflow, runWithPayload, seedWorkflow, startRun, uniqueId } from './debug-helpers';

const items = [{ n: 1 }, { n: 2 }, { n: 3 }];

test('STU-04: a conditional breakpoint holds the matching message; edit it, step, resume: the result has the edited payload', async ({ page, request }) => {
  const workflowId = uniqueId('stu04-bp');
  await seedWorkflow(request, workflowId, [
    { nodeId: 'start', type: 'API_TRIGGER' },
    { nodeId: 'split', type: 'SPLIT', config: { path: 'payload.items' } },
    { nodeId: 'mark', type: 'TRANSFORM', config: { set: { seen: true }, mode: 'merge' } },
    { nodeId: 'done', type: 'RESULT_TERMINAL' },
  ]);
  await openWorkflow(page, workflowId, 'mark');

  // F9 on the selected node sets a breakpoint; the condition editor refuses what it cannot read.
  await page.getByTestId('node-mark').click();
  await page.keyboard.press('F9');
  await expect(page.getByTestId('breakpoint-dot-mark')).toHaveAttribute('data-state', 'on');
  const condition = page.getByTestId('breakpoint-condition');
  await condition.fill('payload.n = 2');
  await condition.press('Enter');
  await expect(page.getByTestId('breakpoint-condition-error')).toContainText('==');
  await condition.fill('payload.n == 2');
  await condition.press('Enter');
  await expect(page.getByTestId('breakpoint-condition-error')).toHaveCount(0);
  await expect(page.getByTestId('breakpoint-dot-mark')).toHaveAttribute('data-state', 'conditional');

  // The run stops at n == 2: the node pulses (held), the inspector shows the message.
  await runWithPayload(page, { items });
  await expect(page.getByTestId('node-mark')).toHaveAttribute('data-held', 'true');
  await page.getByTestId('node-mark').click();
  const held = page.getByTestId('held-message');
  await expect(page.getByTestId('held-payload')).toContainText('n: 2');
  const firstHeld = await held.getAttribute('data-message-id');

  // Edit the payload before it is let go.
  await page.getByTestId('held-edit').click();
  await page.getByTestId('held-payload-editor').fill('{"n": 20, "edited": true}');
  await page.getByTestId('held-replace').click();
  await expect(page.getByTestId('held-payload')).toContainText('edited: true');

  // Step (F10): the edited message goes on, the node holds the next one; Resume (F6) lets it go.
  await page.keyboard.press('F10');
  await expect(held).not.toHaveAttribute('data-message-id', firstHeld ?? '');
  await expect(page.getByTestId('held-payload')).toContainText('n: 3');
  await page.keyboard.press('F6');
  await expect(page.getByTestId('run-banner-status')).toHaveAttribute('data-status', 'SUCCESS');
  await expect(page.getByTestId('node-mark')).not.toHaveAttribute('data-held', 'true');
  await expect(page.getByTestId('node-counts-done')).toHaveText('3 in · 0 out');

  await page.getByTestId('results-tab').click();
  await expect(page.getByTestId('results-count')).toHaveText('3 result(s)');
  await expect(page.getByTestId('results-list')).toContainText('{"n":20,"edited":true,"seen":true}');
  await expect(page.getByTestId('results-list')).toContainText('{"n":3,"seen":true}');
});

test('STU-04: Stop ▾ Kill (Shift+F5) ends a run that is waiting inside a node CANCELLED', async ({ page, request }) => {
  const workflowId = uniqueId('stu04-kill');
  await seedWorkflow(request, workflowId, [
    { nodeId: 'start', type: 'API_TRIGGER' },
    { nodeId: 'wait', type: 'DELAY', config: { ms: 600_000 } },
    { nodeId: 'print', type: 'CONSOLE_TERMINAL' },
  ]);
  await openWorkflow(page, workflowId, 'wait');
  await page.getByTestId('run-button').click();
  await expect(page.getByTestId('node-wait')).toHaveAttribute('data-status', 'RUNNING');
  // The run list has the run too before the keys go in (the studio settles on the new run first).
  await expect(page.getByTestId('runs-list').locator('[data-testid^="run-row-"]').first()).toHaveAttribute('data-status', 'RUNNING');

  await page.keyboard.press('Shift+F5');
  await expect(page.getByTestId('debug-stop-menu')).toBeVisible();
  await expect(page.getByTestId('debug-stop-DRAIN')).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('debug-stop-CANCEL')).toBeFocused();
  await page.keyboard.press('ArrowDown');
  await expect(page.getByTestId('debug-stop-KILL')).toBeFocused();
  await page.keyboard.press('Enter');

  await expect(page.getByTestId('run-banner-status')).toHaveAttribute('data-status', 'CANCELLED');
  const row = page.getByTestId('runs-list').locator('[data-testid^="run-row-"]').first();
  await expect(row).toHaveAttribute('data-status', 'CANCELLED');
  await expect(page.getByTestId('debug-stop')).toBeDisabled();
});

test('STU-04: restart from a middle node re-runs only it and its descendants (the counts say so)', async ({ page, request }) => {
  const workflowId = uniqueId('stu04-restart');
  await seedWorkflow(request, workflowId, [
    { nodeId: 'start', type: 'API_TRIGGER' },
    { nodeId: 'split', type: 'SPLIT', config: { path: 'payload.items' } },
    { nodeId: 'shape', type: 'TRANSFORM', config: { set: { shaped: true }, mode: 'merge' } },
    { nodeId: 'done', type: 'RESULT_TERMINAL' },
  ]);
  await openWorkflow(page, workflowId, 'shape');
  await runWithPayload(page, { items });
  await expect(page.getByTestId('run-banner-status')).toHaveAttribute('data-status', 'SUCCESS');
  await expect(page.getByTestId('node-counts-start')).toHaveText('1 in · 1 out');
  await expect(page.getByTestId('node-counts-shape')).toHaveText('3 in · 3 out');
  const first = await page.getByTestId('run-banner').getAttribute('data-run');

  await page.getByTestId('node-shape').click();
  await page.getByTestId('node-restart-from').click();
  await expect(page.getByTestId('run-banner')).not.toHaveAttribute('data-run', first ?? '');
  await expect(page.getByTestId('run-banner-status')).toHaveAttribute('data-status', 'SUCCESS');
  // shape and done ran again on the recorded output of split; start did not run at all.
  await expect(page.getByTestId('node-counts-shape')).toHaveText('3 in · 3 out');
  await expect(page.getByTestId('node-counts-done')).toHaveText('3 in · 0 out');
  await expect(page.getByTestId('node-start')).toHaveAttribute('data-status', 'NONE');
  await expect(page.getByTestId('node-counts-start')).toHaveCount(0);
  await expect(page.getByTestId('runs-list').locator('[data-testid^="run-row-"]')).toHaveCount(2);
});

test('STU-04: comparing two runs names the one node whose output differs; the run version diffs against the current one', async ({ page, request }) => {
  const workflowId = uniqueId('stu04-compare');
  const nodes = (tag: string) => [
    { nodeId: 'start', type: 'API_TRIGGER' },
    { nodeId: 'greet', type: 'TRANSFORM', config: { set: { greeting: 'Hello ${payload.name}' }, mode: 'merge' } },
    { nodeId: 'tag', type: 'TRANSFORM', config: { set: { tag }, mode: 'merge' } },
    { nodeId: 'done', type: 'RESULT_TERMINAL' },
  ];
  await seedWorkflow(request, workflowId, nodes('first'));
  const a = await startRun(request, workflowId, { name: 'Ada' });
  await seedWorkflow(request, workflowId, nodes('second'));
  const b = await startRun(request, workflowId, { name: 'Ada' });

  await openWorkflow(page, workflowId, 'tag');
  await page.getByTestId('runs-tab').click();
  await expect(page.getByTestId(`run-row-${a}`)).toHaveAttribute('data-status', 'SUCCESS');
  await expect(page.getByTestId(`run-row-${b}`)).toHaveAttribute('data-status', 'SUCCESS');
  await page.getByTestId(`run-pick-${a}`).check();
  await page.getByTestId(`run-pick-${b}`).check();
  await page.getByTestId('runs-compare').click();

  const compare = page.getByTestId('run-compare');
  await expect(compare.getByTestId('compare-summary')).toContainText('output differs at tag.');
  await expect(compare.locator('[data-output-differs="true"]')).toHaveCount(1);
  await expect(compare.getByTestId('compare-row-tag')).toHaveAttribute('data-output-differs', 'true');
  await expect(compare.getByTestId('compare-row-greet')).toHaveAttribute('data-differs', 'none');
  await compare.getByTestId('compare-show-tag').click();
  await expect(compare.getByTestId('compare-messages-tag')).toContainText('"first"');
  await expect(compare.getByTestId('compare-messages-tag')).toContainText('"second"');

  // The older run used the first version: its banner offers the diff against the current one.
  await page.getByTestId(`run-row-${a}`).click();
  await page.getByTestId('run-banner-diff').click();
  await expect(page.getByTestId('canvas')).toHaveAttribute('data-mode', 'diff');
  await expect(page.getByTestId('node-diff-tag')).toContainText('Changed');
});
