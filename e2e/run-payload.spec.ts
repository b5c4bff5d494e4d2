import { expect, test, type APIRequestContext } from '@playwright/test';
import { StudioPage } from './studio-page';

function uniqueId(prefix: string): string {
  return `${prefix}-${Date.now().toString(36)}-${Math.floor(Math.random() * 1e6).toString(36)}`;
}

/** trigger → greet → print, saved through the REST API so the journey starts from the URL. */
async function seedWorkflow(request: APIRequestContext, workflowId: string): Promise<void> {
  const response = await request.post('/api/workflows', {
    data: {
      session: 'default',
      definition: {
        workflowId,
        nodes: [
          { nodeId: 'start', type: 'API_TRIGGER', config: {}, position: { x: 0, y: 0 } },
          { nodeId: 'greet', type: 'TRANSFORM', config: { set: { greeting: 'Hello ${payload.name}' }, mode: 'merge' }, position: { x: 260, y: 0 } },
          { nodeId: 'print', type: 'CONSOLE_TERMINAL', config: {}, position: { x: 520, y: 0 } },
        ],
        edges: [
          { source: 'start', target: 'greet', sourcePort: 'out' },
          { source: 'greet', target: 'print', sourcePort: 'out' },
        ],
      },
    },
  });
  expect(response.ok(), await response.text()).toBe(true);
}

test('STU-03: a required field set in the inspector fails a run without it; Run with payload… succeeds; a run started elsewhere appears live', async ({
  page,
  request,
}) => {
  const studio = new StudioPage(page);
  const workflowId = uniqueId('stu03-payload');
  await seedWorkflow(request, workflowId);
  await page.goto(`/#/w/default/${workflowId}`);
  await expect(studio.node('greet')).toBeVisible();
  await expect(page.getByTestId('save-status')).toHaveText('Saved');

  // Config edited as JSON in the inspector; a syntax error is named and not applied.
  await studio.node('start').click();
  await page.getByTestId('inspector-tab-json').click();
  const config = page.getByTestId('inspector-config');
  await config.fill('{"requiredFields": ["name"]');
  await expect(page.getByTestId('inspector-config-error')).toContainText('Not valid JSON');
  await config.fill('{"requiredFields": ["name"]}');
  await expect(page.getByTestId('inspector-config-error')).toHaveCount(0);
  await expect(page.getByTestId('unsaved-dot')).toBeVisible();

  // Run saves the change, then starts with an empty payload: the trigger refuses it.
  await page.getByTestId('run-button').click();
  await expect(studio.node('start')).toHaveAttribute('data-status', 'FAILURE');
  await expect(studio.node('print')).not.toHaveAttribute('data-status', /^(NONE|SUCCESS)$/);
  const rows = page.getByTestId('runs-list').locator('[data-testid^="run-row-"]');
  await expect(rows.first()).toHaveAttribute('data-status', 'FAILURE');

  // Run with payload…: a non-object is refused in the dialog, an object starts the run.
  await page.getByTestId('run-with-payload-button').click();
  const input = page.getByTestId('run-payload-input');
  await input.fill('[1, 2]');
  await page.getByTestId('run-payload-submit').click();
  await expect(page.getByTestId('run-payload-dialog')).toContainText('must be a JSON object');
  await input.fill('{"name": "Ada"}');
  await page.getByTestId('run-payload-submit').click();
  await expect(rows).toHaveCount(2);
  for (const id of ['start', 'greet', 'print']) await expect(studio.node(id)).toHaveAttribute('data-status', 'SUCCESS');
  await expect(rows.first()).toHaveAttribute('data-status', 'SUCCESS');

  // Clicking the older run shows its statuses on the canvas again.
  await rows.nth(1).click();
  await expect(studio.node('start')).toHaveAttribute('data-status', 'FAILURE');

  // A run started elsewhere (REST) reaches the open list only through the live event stream (SSE).
  const started = await request.post('/api/workflow/start', { data: { session: 'default', workflowId, payload: { name: 'Bo' } } });
  expect(started.ok(), await started.text()).toBe(true);
  const { executionId } = (await started.json()) as { executionId: string };
  await expect(page.getByTestId(`run-row-${executionId}`)).toHaveAttribute('data-status', 'SUCCESS');
  await expect(rows).toHaveCount(3);
});
