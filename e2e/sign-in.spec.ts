import { expect, test } from '@playwright/test';
import { startOwnServer, type OwnServer } from './own-server';

/**
 * SEC-01 browser sign-in, against its own `yukta serve` with API keys set in the environment (the shared
 * e2e server has none): a wrong key is refused with a message, the right one opens the studio with the
 * role in the app bar, the workflow list and live events (SSE through a single-use ticket), sign out.
 */

const OPERATOR_KEY = 'e2e-operator-key-0123456789';
const ADMIN_KEY = 'e2e-admin-key-0123456789';

let server: OwnServer | null = null;
let base = '';

test.beforeAll(async () => {
  const keys = JSON.stringify([
    { name: 'ops', key: OPERATOR_KEY, role: 'OPERATOR' },
    { name: 'root', key: ADMIN_KEY, role: 'ADMIN' },
  ]);
  server = await startOwnServer({ YUKTA_API_KEYS: keys }, 'yukta-e2e-keys-');
  base = server.base;
  // A workflow to list and run, saved by the admin.
  const definition = {
    workflowId: 'signed-in-gate',
    nodes: [
      { nodeId: 'start', type: 'API_TRIGGER', config: {}, position: { x: 0, y: 0 } },
      { nodeId: 'gate', type: 'WAIT_FOR_SIGNAL', config: { signal: 'go' }, position: { x: 260, y: 0 } },
      { nodeId: 'done', type: 'RESULT_TERMINAL', config: {}, position: { x: 520, y: 0 } },
    ],
    edges: [
      { source: 'start', target: 'gate', sourcePort: 'out' },
      { source: 'gate', target: 'done', sourcePort: 'out' },
    ],
  };
  const saved = await fetch(`${base}/api/workflows`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ definition }),
  });
  expect(saved.status, await saved.text()).toBe(200);
});

test.afterAll(() => server?.stop());

test('SEC-01: a wrong key is refused with a message; the right key opens the studio with its role, the workflow list and live events; sign out asks again', async ({
  page,
}) => {
  const urls: string[] = [];
  page.on('request', (request) => urls.push(request.url()));
  await page.goto(`${base}/#/w/default/signed-in-gate`);

  const dialog = page.getByTestId('sign-in-dialog');
  await expect(dialog).toBeVisible();
  await expect(page.getByTestId('app-bar')).toHaveCount(0); // nothing of the studio before a key

  await page.getByTestId('sign-in-key').fill('not-the-right-key-000');
  await page.getByTestId('sign-in-submit').click();
  await expect(page.getByTestId('sign-in-error')).toHaveText('the API key is not valid.');

  await page.getByTestId('sign-in-key').fill(OPERATOR_KEY);
  await page.getByTestId('sign-in-submit').click();
  await expect(page.getByTestId('app-bar')).toBeVisible();
  await expect(page.getByTestId('account-role')).toHaveText('OPERATOR');
  await expect(page.getByTestId('workflow-picker')).toContainText('signed-in-gate');
  await expect(page.getByTestId('node-gate')).toBeVisible();
  expect(await page.evaluate(() => sessionStorage.getItem('yukta.api-key'))).toBe(OPERATOR_KEY);

  // Live events: a run started by another client shows up in this studio's inbox through the event stream.
  const started = await fetch(`${base}/api/workflow/start`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ workflowId: 'signed-in-gate', payload: { order: 1 } }),
  });
  expect(started.status).toBe(200);
  await expect(page.getByTestId('inbox-count')).toHaveText('1');
  // The stream was opened with a ticket, and no request URL ever carried a key.
  expect(urls.some((u) => u.includes('/api/events/stream') && u.includes('ticket='))).toBe(true);
  expect(urls.filter((u) => u.includes(OPERATOR_KEY) || u.includes(ADMIN_KEY))).toEqual([]);

  await page.getByTestId('sign-out').click();
  await expect(page.getByTestId('sign-in-dialog')).toBeVisible();
  expect(await page.evaluate(() => sessionStorage.getItem('yukta.api-key'))).toBeNull();
});
