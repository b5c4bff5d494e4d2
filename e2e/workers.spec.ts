import { spawn, type ChildProcess } from 'node:child_process';
import { createInterface } from 'node:readline';
import { expect, test } from '@playwright/test';
import { openWorkflow, runWithPayload, seedWorkflow, uniqueId } from './debug-helpers';
import { E2E_WORKERS_TOKEN } from '../playwright.config';

/** `yukta worker` for the e2e server's listener (its address from `GET /api/workers`), resolved once registered. */
async function startWorker(listener: string, name: string, pool: string): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'main/cli/index.ts',
      'worker',
      '--control-plane',
      listener,
      '--pool',
      pool,
      '--name',
      name,
      '--slots',
      '2',
      '--allow',
      'TRANSFORM,DELAY',
    ],
    {
      env: { ...process.env, YUKTA_WORKER_TOKEN: E2E_WORKERS_TOKEN },
    },
  );
  await new Promise<void>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on('line', (line) => line.startsWith('registered with ') && resolve());
    child.on('exit', (code) => reject(new Error(`worker ${name} exited ${code}`)));
  });
  return child;
}

test('SCL-01/STU-06: a connected worker shows in the Scheduler tab, the pool field offers its pool, and the inspector says which worker ran the placed node', async ({
  page,
  request,
}) => {
  test.setTimeout(120_000);
  const workers = (await (await request.get('/api/workers')).json()) as { listener: string | null };
  expect(workers.listener).toMatch(/^ws:\/\/127\.0\.0\.1:\d+\/workers$/);
  const pool = uniqueId('e2e-pool');
  const worker = await startWorker(workers.listener!, 'e2e-worker', pool);
  try {
    const workflowId = uniqueId('scl01');
    await seedWorkflow(request, workflowId, [
      { nodeId: 'start', type: 'API_TRIGGER' },
      { nodeId: 'shape', type: 'TRANSFORM', config: { set: { greeting: 'Hello ${payload.name}' }, mode: 'merge', engine: { placement: { pool } } } },
      { nodeId: 'done', type: 'RESULT_TERMINAL' },
    ]);
    await openWorkflow(page, workflowId, 'shape');

    await page.getByTestId('scheduler-tab').click();
    const row = page.getByTestId('worker-e2e-worker');
    await expect(row).toBeVisible();
    await expect(row).toContainText(pool);
    await expect(page.getByTestId('worker-e2e-worker-state')).toHaveText('taking attempts');
    await expect(page.getByTestId(`workers-pool-${pool}`)).toContainText('0 / 2');
    await expect(page.getByTestId('workers-gauge')).toHaveText('Workers 1 · 0 / 2 slots used');

    await page.getByTestId('node-shape').click();
    await expect(page.getByTestId('field-engine.placement.pool')).toHaveValue(pool);
    await expect(page.getByTestId('field-engine.placement.pool-pools').locator(`option[value="${pool}"]`)).toHaveCount(1);

    await runWithPayload(page, { name: 'Ada' });
    await expect(page.getByTestId('run-banner-status')).toHaveAttribute('data-status', 'SUCCESS');
    await page.getByTestId('node-shape').click();
    await expect(page.getByTestId('remote-attempt-0-worker')).toHaveText('e2e-worker');
    await expect(page.getByTestId('remote-attempt-0-outcome')).toHaveText('SUCCESS');
    await page.getByTestId('results-tab').click();
    await expect(page.getByTestId('results-list')).toContainText('"greeting":"Hello Ada"');

    // A worker that stops drains and leaves: the tab says no worker of that pool is connected any more.
    worker.kill('SIGTERM');
    await page.getByTestId('scheduler-tab').click();
    await expect(page.getByTestId('worker-e2e-worker')).toHaveCount(0, { timeout: 20_000 });
  } finally {
    if (worker.exitCode === null) worker.kill('SIGKILL');
  }
});
