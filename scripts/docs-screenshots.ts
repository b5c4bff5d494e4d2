// npm run docs:screenshots — regenerates docs/images/*.png from a real `yukta serve` in Chromium (1440×900):
// the empty studio with its examples, a run live, a failure on the node, a breakpoint hold, the approval
// inbox, a version diff and the Settings screen. Run: npx tsx scripts/docs-screenshots.ts [--port 4390]
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { argNumber } from '../bench/lib';
import { CHROMIUM_ARGS, ROOT, startServer, stopServer } from '../bench/serve-process';

const PORT = argNumber('port', 4390);
const BASE = `http://127.0.0.1:${PORT}`;
const OUT = join(ROOT, 'docs', 'images');

type Node = { nodeId: string; type: string; config?: Record<string, unknown>; position: { x: number; y: number } };

async function save(workflowId: string, nodes: Node[], edges: Array<{ source: string; target: string; sourcePort?: string }>): Promise<void> {
  const response = await fetch(`${BASE}/api/workflows`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ session: 'default', definition: { workflowId, nodes, edges } }),
  });
  if (!response.ok) throw new Error(`seeding ${workflowId}: ${await response.text()}`);
}

async function open(page: Page, workflowId: string, firstNode: string): Promise<void> {
  await page.goto(`${BASE}/#/w/default/${workflowId}`);
  await page.getByTestId(`node-${firstNode}`).waitFor();
}

async function shot(page: Page, name: string): Promise<void> {
  await page.mouse.move(0, 0);
  await page.waitForTimeout(400); // let transitions and tooltips settle before the picture
  await page.screenshot({ path: join(OUT, `${name}.png`) });
  console.log(`docs/images/${name}.png`);
}

async function runWithPayload(page: Page, payload: unknown): Promise<void> {
  await page.getByTestId('run-with-payload-button').click();
  await page.getByTestId('run-payload-input').fill(JSON.stringify(payload));
  await page.getByTestId('run-payload-submit').click();
  await page.getByTestId('run-banner').waitFor();
}

const x = (i: number, y = 120) => ({ x: i * 250, y });

async function seed(): Promise<void> {
  await save(
    'orders-live',
    [
      { nodeId: 'orders', type: 'API_TRIGGER', position: x(0) },
      { nodeId: 'each-order', type: 'SPLIT', config: { path: 'payload.orders' }, position: x(1) },
      { nodeId: 'enrich', type: 'TRANSFORM', config: { set: { checked: true }, mode: 'merge' }, position: x(2, 40) },
      { nodeId: 'slow-api', type: 'DELAY', config: { ms: 4000 }, position: x(2, 220) },
      { nodeId: 'collect', type: 'AGGREGATE', config: { mode: 'all' }, position: x(3) },
      { nodeId: 'report', type: 'RESULT_TERMINAL', position: x(4) },
    ],
    [
      { source: 'orders', target: 'each-order' },
      { source: 'each-order', target: 'enrich' },
      { source: 'each-order', target: 'slow-api' },
      { source: 'enrich', target: 'collect' },
      { source: 'slow-api', target: 'collect' },
      { source: 'collect', target: 'report' },
    ],
  );
  await save(
    'payments',
    [
      { nodeId: 'payment', type: 'API_TRIGGER', position: x(0) },
      {
        nodeId: 'charge-card',
        type: 'SCRIPT',
        config: { code: 'throw new Error(`card declined for ${payload.customer}: insufficient funds`)', engine: { retry: { maxAttempts: 3, backoffMs: 50 } } },
        position: x(1),
      },
      { nodeId: 'receipt', type: 'RESULT_TERMINAL', position: x(2) },
    ],
    [
      { source: 'payment', target: 'charge-card' },
      { source: 'charge-card', target: 'receipt' },
    ],
  );
  await save(
    'refunds',
    [
      { nodeId: 'refund', type: 'API_TRIGGER', position: x(0) },
      { nodeId: 'manager', type: 'WAIT_FOR_SIGNAL', config: { signal: 'approve-refund' }, position: x(1) },
      { nodeId: 'pay-out', type: 'TRANSFORM', config: { set: { paid: true }, mode: 'merge' }, position: x(2) },
      { nodeId: 'done', type: 'RESULT_TERMINAL', position: x(3) },
    ],
    [
      { source: 'refund', target: 'manager' },
      { source: 'manager', target: 'pay-out' },
      { source: 'pay-out', target: 'done' },
    ],
  );
}

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const dataDir = mkdtempSync(join(tmpdir(), 'yukta-docs-'));
  const server = await startServer(PORT, dataDir);
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: CHROMIUM_ARGS });
  try {
    await seed();
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await shootExamples(page);
    await shootRunLive(page);
    await shootFailure(page);
    await shootBreakpoint(page);
    await shootInbox(page);
    await shootDiff(page);
    await shootSettings(await browser.newPage({ viewport: { width: 1440, height: 900 } }));
  } finally {
    await browser.close();
    stopServer(server);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** The empty studio with its examples dialog open. */
async function shootExamples(page: Page): Promise<void> {
  await page.goto(`${BASE}/#/`);
  await page.getByTestId('open-example').click();
  await shot(page, 'studio-examples');
  await page.keyboard.press('Escape');
}

/** A run live: one branch done, the slow one still going. */
async function shootRunLive(page: Page): Promise<void> {
  await open(page, 'orders-live', 'orders');
  await runWithPayload(page, { orders: [{ id: 'A-1' }, { id: 'A-2' }, { id: 'A-3' }] });
  await page.getByTestId('node-enrich').click();
  await page.getByTestId('node-status-enrich').getByText('Success').waitFor();
  await shot(page, 'studio-run-live');
}

/** A failed run shown on its node, with the logs. */
async function shootFailure(page: Page): Promise<void> {
  await open(page, 'payments', 'charge-card');
  await runWithPayload(page, { customer: 'ada@example.com', amount: 42 });
  await page.getByTestId('run-banner-failure').waitFor();
  await page.getByTestId('run-banner-show-node').click();
  await page.getByTestId('logs-tab').click();
  await shot(page, 'studio-failure');
}

/** A message held at a breakpoint; the run is stopped afterwards. */
async function shootBreakpoint(page: Page): Promise<void> {
  await open(page, 'orders-live', 'orders');
  await page.getByTestId('node-enrich').click();
  await page.keyboard.press('F9');
  await runWithPayload(page, { orders: [{ id: 'B-1' }, { id: 'B-2' }] });
  await page.getByTestId('run-banner-held').waitFor();
  await page.getByTestId('held-message').waitFor();
  await page.getByTestId('breakpoints-tab').click();
  await shot(page, 'studio-breakpoint');
  await page.getByTestId('debug-stop').click();
  await page.getByTestId('run-banner-status').and(page.locator('[data-status="CANCELLED"]')).waitFor();
}

/** The approval inbox with a refund waiting; answered afterwards. */
async function shootInbox(page: Page): Promise<void> {
  await open(page, 'refunds', 'manager');
  await runWithPayload(page, { refund: 'R-17', amount: 120, customer: 'grace@example.com' });
  await page.getByTestId('node-waiting-manager').waitFor();
  await page.getByTestId('inbox-button').click();
  await shot(page, 'studio-inbox');
  // Answered, so no run is left waiting when the server stops.
  await page.getByTestId('inbox-approve').click();
  await page.getByTestId('inbox-empty').waitFor();
  await page.getByTestId('inbox-close').click();
}

/** A diff of two versions on the canvas: a label edited and saved. */
async function shootDiff(page: Page): Promise<void> {
  await open(page, 'refunds', 'manager');
  await page.getByTestId('node-pay-out').click();
  await page.getByTestId('inspector-label').fill('pays the customer back');
  await page.getByTestId('save-button').click();
  await page.getByTestId('save-status').getByText('Saved').waitFor();
  await page.getByTestId('versions-tab').click();
  const picks = page.locator('[data-testid^="version-pick-"]');
  await picks.nth(0).check();
  await picks.nth(1).check();
  await page.getByTestId('versions-compare').click();
  await page.getByTestId('diff-banner').waitFor();
  await shot(page, 'studio-diff');
}

/** Settings (STU-07), over an empty canvas: a live limit applied, and a bad value refused inline, naming the setting. */
async function shootSettings(settings: Page): Promise<void> {
  await settings.goto(`${BASE}/#/`);
  await settings.getByTestId('palette-item-API_TRIGGER').waitFor();
  await settings.getByTestId('settings-button').click();
  await settings.getByTestId('settings-tab-all').click();
  await settings.getByTestId('setting-yukta.execution.max-concurrent-input').fill('4');
  await settings.getByTestId('setting-yukta.execution.max-concurrent-apply').click();
  await settings.getByTestId('setting-yukta.execution.max-concurrent-status').waitFor();
  await settings.getByTestId('setting-yukta.execution.max-concurrent-per-workflow-input').fill('lots');
  await settings.getByTestId('setting-yukta.execution.max-concurrent-per-workflow-error').waitFor();
  await shot(settings, 'settings');
}

await main();
