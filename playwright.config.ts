import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';

/** Port of the studio server the specs drive (`yukta serve`); `YUKTA_E2E_PORT` lets two runs share a machine. */
export const E2E_PORT = Number(process.env.YUKTA_E2E_PORT ?? 4317);
/** The shared token of the e2e server's workers' listener (SCL-01; the listener takes a free port). */
export const E2E_WORKERS_TOKEN = 'e2e-workers-token-0123456789';
// A fresh data folder per test run, so specs never see workflows of an earlier run.
const dataDir = mkdtempSync(join(tmpdir(), 'yukta-e2e-'));

/**
 * E2E: Debian Chromium (Playwright's own browsers cannot be downloaded here) against `yukta serve`,
 * which serves the built renderer (`vite build` first: `npm run test:e2e` does it).
 */
export default defineConfig({
  testDir: 'e2e',
  workers: 1,
  retries: 0,
  fullyParallel: false,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json', { outputFile: '.test-reports/e2e.json' }]],
  use: {
    baseURL: `http://127.0.0.1:${E2E_PORT}`,
    viewport: { width: 1440, height: 900 },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  webServer: {
    command: `npx tsx main/cli/index.ts serve --port ${E2E_PORT} --data ${JSON.stringify(dataDir)}`,
    url: `http://127.0.0.1:${E2E_PORT}/api/node-types`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'pipe',
    stderr: 'pipe',
    env: { YUKTA_WORKERS_ENABLED: 'true', YUKTA_WORKERS_PORT: '0', YUKTA_WORKERS_TOKEN: E2E_WORKERS_TOKEN },
  },
});
