import { expect, test, type APIRequestContext } from '@playwright/test';
import { seedWorkflow as seedNodes, uniqueId } from './debug-helpers';
import { StudioPage } from './studio-page';

/** trigger → print: a run that ends at once. */
function seedWorkflow(request: APIRequestContext, workflowId: string): Promise<void> {
  return seedNodes(request, workflowId, [
    { nodeId: 'start', type: 'API_TRIGGER' },
    { nodeId: 'print', type: 'CONSOLE_TERMINAL' },
  ]);
}

test('OBS-04: the Metrics tab counts a run started from the studio, live; GET /metrics has it by workflow', async ({ page, request }) => {
  const studio = new StudioPage(page);
  const workflowId = uniqueId('obs04');
  await seedWorkflow(request, workflowId);
  await page.goto(`/#/w/default/${workflowId}`);
  await expect(studio.node('print')).toBeVisible();

  await page.getByTestId('metrics-tab').click();
  const completed = page.getByTestId('metrics-runs-completed');
  await expect(completed).toHaveText(/^\d+$/);
  const before = Number(await completed.textContent());

  // A run started elsewhere (REST) while the tab is open: the counter follows live.
  const started = await request.post('/api/workflow/start', { data: { session: 'default', workflowId, payload: {} } });
  expect(started.ok(), await started.text()).toBe(true);
  await expect(completed).toHaveText(String(before + 1));
  await expect(page.getByTestId('metrics-chart-runs')).toBeVisible();

  // A run from the studio's Run button (which shows the Runs tab); back on Metrics it is counted too.
  await page.getByTestId('run-button').click();
  await expect(page.getByTestId('run-banner')).toContainText('Success');
  await page.getByTestId('metrics-tab').click();
  await expect(completed).toHaveText(String(before + 2));

  const scrape = await request.get('/metrics');
  expect(scrape.status()).toBe(200);
  expect(scrape.headers()['content-type']).toContain('text/plain');
  expect(await scrape.text()).toContain(`yukta_executions_completed_total{session="default",workflow="${workflowId}",status="SUCCESS"} 2`);
});
