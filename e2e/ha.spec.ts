import { expect, test } from '@playwright/test';
import { startPostgresCluster, type PostgresCluster } from '../engine/test-support/postgres-cluster';
import { startOwnServer, type OwnServer } from './own-server';

/**
 * SCL-02 in the browser: two `yukta serve` hosts on one PostgreSQL server (a throwaway cluster on the spec's
 * own port, or `YUKTA_TEST_PG_URL`). The standby's studio says who leads and keeps Run and Save disabled
 * with the reason; when the leader stops (SIGTERM releases the lease), the same page turns to Leader.
 */

const PG_PORT = 55441;
let cluster: PostgresCluster | null = null;
let leader: OwnServer | null = null;
let standby: OwnServer | null = null;

test.beforeAll(async () => {
  test.setTimeout(120_000);
  const given = process.env.YUKTA_TEST_PG_URL;
  if (!given) cluster = await startPostgresCluster({ port: PG_PORT });
  const url = given ?? cluster!.url;
  const schema = `e2e_ha_${process.pid}`;
  const env = { YUKTA_STORE: 'postgres', YUKTA_POSTGRES_URL: url, YUKTA_POSTGRES_SCHEMA: schema, YUKTA_HA_MODE: 'postgres', YUKTA_HA_LEASE: '1500' };
  leader = await startOwnServer({ ...env, YUKTA_HA_HOST_NAME: 'studio-a' }, 'yukta-e2e-ha-a-');
  standby = await startOwnServer({ ...env, YUKTA_HA_HOST_NAME: 'studio-b' }, 'yukta-e2e-ha-b-');
  const definition = {
    workflowId: 'ha-hello',
    nodes: [
      { nodeId: 'start', type: 'API_TRIGGER', position: { x: 0, y: 0 } },
      { nodeId: 'print', type: 'CONSOLE_TERMINAL', position: { x: 260, y: 0 } },
    ],
    edges: [{ source: 'start', target: 'print', sourcePort: 'out' }],
  };
  const saved = await fetch(`${leader.base}/api/workflows`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ definition }),
  });
  expect(saved.status, await saved.text()).toBe(200);
});

/** Stops a server unless it is gone already (the test stops the leader itself). */
function stopQuietly(server: OwnServer | null): void {
  try {
    server?.stop();
  } catch {
    // already stopped
  }
}

test.afterAll(async () => {
  stopQuietly(leader);
  stopQuietly(standby);
  await cluster?.stop();
});

test("SCL-02: the standby's studio is read-only and names the leader; it leads once the leader stops", async ({ page }) => {
  await page.goto(`${standby!.base}/#/w/default/ha-hello`);
  const badge = page.getByTestId('leader-badge');
  await expect(badge).toHaveText(/Standby \(read-only\) — leader is studio-a/);
  const run = page.getByTestId('run-button');
  await expect(run).toBeDisabled();
  await expect(page.getByTestId('save-button')).toBeDisabled();
  await expect(page.getByTestId('write-controls')).toHaveAttribute(
    'title',
    /standby \(read-only\) — leader is studio-a\. Run, save and control on the leader\./,
  );
  // The definition the leader saved reads fine here.
  await expect(page.getByTestId('workflow-id-input')).toHaveValue('ha-hello');

  leader!.stop();
  await expect(badge).toHaveText(/Leader/, { timeout: 15_000 });
  await expect(run).toBeEnabled();
  await run.click();
  await expect(page.getByTestId('run-error')).toHaveCount(0);
});
