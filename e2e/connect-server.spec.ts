import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from '@playwright/test';
import { E2E_PORT } from '../playwright.config';
import { seedWorkflow, uniqueId } from './debug-helpers';

/**
 * STU-08 Connect to server, in Chromium: the studio served by the e2e server (the "local" host) switches
 * to a team's `yukta serve` — a child process with an API key, allowing this page's origin — lists its
 * workflows and runs one live (the event stream with the key), refuses a wrong key and an unreachable
 * address with the message, and goes back to Local.
 */
// Fixed ports a second run on the machine can move (`YUKTA_E2E_TEAM_PORT`, `YUKTA_E2E_NOBODY_PORT`), as YUKTA_E2E_PORT moves the main one.
const TEAM_PORT = Number(process.env.YUKTA_E2E_TEAM_PORT ?? 4541);
const NOBODY_PORT = Number(process.env.YUKTA_E2E_NOBODY_PORT ?? 4549);
const TEAM_KEY = 'team-server-key-0123456789';
const TEAM_URL = `http://127.0.0.1:${TEAM_PORT}`;

let team: ChildProcess | null = null;
let teamData = '';

test.beforeAll(async () => {
  teamData = mkdtempSync(join(tmpdir(), 'yukta-team-'));
  const cli = resolve('dist/main/cli.mjs');
  team = spawn(process.execPath, [cli, 'serve', '--port', String(TEAM_PORT), '--data', teamData], {
    env: { ...process.env, YUKTA_API_KEY: TEAM_KEY, YUKTA_HTTP_CORS_ORIGINS: `http://127.0.0.1:${E2E_PORT}` },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((ready, fail) => {
    let output = '';
    team!.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('serving at')) ready();
    });
    team!.on('exit', (code) => fail(new Error(`yukta serve exited with ${code}: ${output} (built? npm run build)`)));
  });
});

test.afterAll(() => {
  team?.kill('SIGTERM');
  rmSync(teamData, { recursive: true, force: true });
});

test('STU-08: the studio switches to a team server, lists and runs its workflows, refuses a wrong key, and goes back to Local', async ({ page, request }) => {
  const localId = uniqueId('stu08-local');
  await seedWorkflow(request, localId, [
    { nodeId: 'start', type: 'API_TRIGGER' },
    { nodeId: 'print', type: 'CONSOLE_TERMINAL' },
  ]);
  const teamId = uniqueId('stu08-team');
  const saved = await request.post(`${TEAM_URL}/api/workflows`, {
    headers: { authorization: `Bearer ${TEAM_KEY}` },
    data: {
      session: 'default',
      definition: {
        workflowId: teamId,
        nodes: [
          { nodeId: 'start', type: 'API_TRIGGER', position: { x: 0, y: 0 } },
          { nodeId: 'done', type: 'RESULT_TERMINAL', position: { x: 260, y: 0 } },
        ],
        edges: [{ source: 'start', target: 'done' }],
      },
    },
  });
  expect(saved.ok(), await saved.text()).toBe(true);

  await page.goto('/#/');
  await expect(page.getByTestId('host-label')).toHaveText('Local');
  const picker = page.getByTestId('workflow-picker');
  await expect(picker.locator('option', { hasText: localId })).toHaveCount(1);

  await page.getByTestId('host-badge').click();
  await expect(page.getByTestId('connect-current')).toHaveText('Local');
  await page.getByTestId('connect-url').fill(TEAM_URL);
  await page.getByTestId('connect-key').fill('wrong-key-0123456789abcdef');
  await page.getByTestId('connect-submit').click();
  await expect(page.getByTestId('connect-key-error')).toHaveText('the server refused the API key: the API key is not valid');
  await page.getByTestId('connect-url').fill(`http://127.0.0.1:${NOBODY_PORT}`);
  await page.getByTestId('connect-key').fill(TEAM_KEY);
  await page.getByTestId('connect-submit').click();
  await expect(page.getByTestId('connect-url-error')).toContainText(`http://127.0.0.1:${NOBODY_PORT} is not reachable`);
  await expect(page.getByTestId('host-label')).toHaveText('Local'); // nothing changed

  await page.getByTestId('connect-url').fill(TEAM_URL);
  await page.getByTestId('connect-submit').click();
  await expect(page.getByTestId('host-label')).toHaveText(`127.0.0.1:${TEAM_PORT}`);
  await expect(page).toHaveTitle(`Yukta Studio — 127.0.0.1:${TEAM_PORT}`);
  await expect(picker.locator('option', { hasText: teamId })).toHaveCount(1);
  await expect(picker.locator('option', { hasText: localId })).toHaveCount(0);

  // The same studio on the team server: open its workflow and watch a run live (REST and the event stream, with the key).
  await picker.selectOption(`default/${teamId}`);
  await expect(page.getByTestId('node-done')).toBeVisible();
  await page.getByTestId('run-button').click();
  await expect(page.getByTestId('run-banner-status')).toHaveAttribute('data-status', 'SUCCESS');
  await expect(page.getByTestId('node-counts-done')).toHaveText('1 in · 0 out');
  const runs = await request.get(`${TEAM_URL}/api/executions?workflowId=${teamId}`, { headers: { authorization: `Bearer ${TEAM_KEY}` } });
  expect(((await runs.json()) as unknown[]).length).toBe(1);

  await page.getByTestId('host-badge').click();
  await page.getByTestId('connect-local').click();
  await expect(page.getByTestId('host-label')).toHaveText('Local');
  await expect(picker.locator('option', { hasText: localId })).toHaveCount(1);
  await expect(picker.locator('option', { hasText: teamId })).toHaveCount(0);
});
