import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { killLiveRuns, seedWorkflow as seedNodes, uniqueId } from './debug-helpers';
import { StudioPage } from './studio-page';

/** trigger → wait (`payload.waitMs`) → print: runs stay RUNNING as long as the payload says (real clock). */
function seedWorkflow(request: APIRequestContext, workflowId: string): Promise<void> {
  return seedNodes(request, workflowId, [
    { nodeId: 'start', type: 'API_TRIGGER' },
    { nodeId: 'wait', type: 'DELAY', config: { ms: '${payload.waitMs:int}' } },
    { nodeId: 'print', type: 'CONSOLE_TERMINAL' },
  ]);
}

async function setLimitInPanel(page: Page, maxConcurrent: number): Promise<void> {
  await page.getByTestId('scheduler-tab').click();
  await page.getByTestId('limit-maxConcurrent').fill(String(maxConcurrent));
  await page.getByTestId('scheduler-limits-apply').click();
  await expect(page.getByTestId('limit-maxConcurrent')).toHaveValue(String(maxConcurrent));
  await expect(page.getByTestId('scheduler-running-count')).toContainText(`/ ${maxConcurrent}`);
}

async function startFromDialog(page: Page, priority: number): Promise<void> {
  await page.getByTestId('run-with-payload-button').click();
  await page.getByTestId('run-payload-input').fill('{"waitMs": 600000}');
  await page.getByTestId('run-payload-priority').fill(String(priority));
  await page.getByTestId('run-payload-submit').click();
  await expect(page.getByTestId('run-payload-dialog')).toHaveCount(0);
  await expect(page.getByTestId('run-button')).toBeEnabled();
}

test.afterAll(async ({ request }) => {
  // The server is shared by every spec: caps off again, and a short shutdown for the runs still waiting.
  await request.post('/api/scheduler/limits', { data: { maxConcurrent: 0, shutdownTimeoutMs: 1000 } });
});

test('STU-06/ADM-01: with max-concurrent 1, three starts from the dialog (priorities 0, 5, 1) wait in order 5, 1, 0; raising the limit to 3 runs them all', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const studio = new StudioPage(page);
  const workflowId = uniqueId('adm01-queue');
  await seedWorkflow(request, workflowId);
  await page.goto(`/#/w/default/${workflowId}`);
  await expect(studio.node('wait')).toBeVisible();
  await expect(page.getByTestId('save-status')).toHaveText('Saved');

  // The cap is global: runs another spec left going would hold the slot and queue the blocker too.
  await killLiveRuns(request);
  await setLimitInPanel(page, 1);
  // A run that holds the only slot until the test stops it (not a timer: on a loaded machine the three starts
  // below may take longer than any fixed wait), so all three have to wait.
  const blocker = await request.post('/api/workflow/start', { data: { session: 'default', workflowId, payload: { waitMs: 600_000 } } });
  expect(blocker.ok(), await blocker.text()).toBe(true);
  const blockerId = ((await blocker.json()) as { executionId: string }).executionId;

  for (const priority of [0, 5, 1]) await startFromDialog(page, priority);

  await page.getByTestId('scheduler-tab').click();
  const rows = page.getByTestId('scheduler-queue').locator('[data-testid^="queued-row-"]');
  await expect(rows).toHaveCount(3);
  await expect(rows.nth(0)).toHaveAttribute('data-priority', '5');
  await expect(rows.nth(1)).toHaveAttribute('data-priority', '1');
  await expect(rows.nth(2)).toHaveAttribute('data-priority', '0');
  for (let i = 0; i < 3; i++) await expect(rows.nth(i)).toContainText('waiting for a slot (max-concurrent 1)');
  const queuedIds = await rows.evaluateAll((els) => els.map((el) => el.getAttribute('data-testid')!.replace('queued-row-', '')));

  // The run list shows them QUEUED too.
  for (const id of queuedIds) expect(((await (await request.get(`/api/executions/${id}`)).json()) as { status: string }).status).toBe('QUEUED');

  await setLimitInPanel(page, 3);
  // Two get a slot at once; the third when the blocker's slot frees.
  const stopped = await request.post(`/api/executions/${blockerId}/control`, { data: { command: { type: 'StopWorkflow', mode: 'KILL' } } });
  expect(stopped.ok(), await stopped.text()).toBe(true);
  await expect(page.getByTestId('scheduler-queue-empty')).toBeVisible({ timeout: 30_000 });
  for (const id of queuedIds) await expect(page.getByTestId(`running-row-${id}`)).toBeVisible();
  for (const id of queuedIds) {
    await expect.poll(async () => ((await (await request.get(`/api/executions/${id}`)).json()) as { status: string }).status).toBe('RUNNING');
  }
});
