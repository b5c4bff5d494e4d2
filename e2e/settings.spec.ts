import { expect, test, type Page } from '@playwright/test';
import { startOwnServer, type OwnServer } from './own-server';

/**
 * STU-07 / CFG-01 the Settings screen, driven as a user in Chromium against a `yukta serve` of its own (API keys
 * and a secrets key in its environment; the shared e2e server has no keys, and creating one there would lock
 * the other specs out): a live setting takes effect on the Scheduler tab, a restart one is marked, a bad value
 * is refused inline naming the setting, a created key is shown once, a secret is never shown back, and a
 * VIEWER sees everything disabled with the reason.
 */

const ADMIN_KEY = 'e2e-settings-admin-key-0123456789';
const VIEWER_KEY = 'e2e-settings-viewer-key-0123456789';
const SECRET_VALUE = 'sk-e2e-never-shown-back-4242';

let server: OwnServer | null = null;

test.beforeAll(async () => {
  const keys = JSON.stringify([
    { name: 'root', key: ADMIN_KEY, role: 'ADMIN' },
    { name: 'watcher', key: VIEWER_KEY, role: 'VIEWER' },
  ]);
  server = await startOwnServer({ YUKTA_API_KEYS: keys, YUKTA_SECRETS_KEY: 'e2e-settings-secrets-passphrase' }, 'yukta-e2e-settings-');
});

test.afterAll(() => server?.stop());

async function signIn(page: Page, key: string): Promise<void> {
  await page.goto(`${server!.base}/#/`);
  await page.getByTestId('sign-in-key').fill(key);
  await page.getByTestId('sign-in-submit').click();
  await expect(page.getByTestId('app-bar')).toBeVisible();
}

async function openSettings(page: Page, tab: string): Promise<void> {
  await page.getByTestId('settings-button').click();
  await expect(page.getByTestId('settings-dialog')).toBeVisible();
  await page.getByTestId(`settings-tab-${tab}`).click();
}

const row = (page: Page, key: string) => page.getByTestId(`setting-${key}`);

test('STU-07: an ADMIN changes a live setting (seen on the Scheduler tab), saves a restart one (marked), is refused a bad value inline', async ({ page }) => {
  await signIn(page, ADMIN_KEY);
  // The keyboard opens it too (Ctrl+, from the command table).
  await page.keyboard.press('Control+Comma');
  await expect(page.getByTestId('settings-dialog')).toBeVisible();
  await expect(page.getByTestId('settings-whoami')).toContainText('ADMIN key:root');
  await page.getByTestId('settings-tab-all').click();

  const live = row(page, 'yukta.execution.max-concurrent');
  await expect(live).toHaveAttribute('data-apply', 'live');
  await expect(page.getByTestId('setting-yukta.execution.max-concurrent-current')).toHaveText('0');
  await expect(page.getByTestId('setting-yukta.execution.max-concurrent-source')).toHaveText('from default');

  // A bad value: refused inline, naming the setting, and Apply stays off (nothing is sent).
  const input = page.getByTestId('setting-yukta.execution.max-concurrent-input');
  await input.fill('-3');
  await expect(page.getByTestId('setting-yukta.execution.max-concurrent-error')).toHaveText(
    'yukta.execution.max-concurrent must be a whole number from 0 to 10000000 (got "-3")',
  );
  await expect(page.getByTestId('setting-yukta.execution.max-concurrent-apply')).toBeDisabled();

  await input.fill('3');
  await expect(page.getByTestId('setting-yukta.execution.max-concurrent-error')).toHaveCount(0);
  await page.getByTestId('setting-yukta.execution.max-concurrent-apply').click();
  await expect(page.getByTestId('setting-yukta.execution.max-concurrent-status')).toHaveText('Applied now.');
  await expect(page.getByTestId('setting-yukta.execution.max-concurrent-current')).toHaveText('3');
  await expect(page.getByTestId('setting-yukta.execution.max-concurrent-source')).toHaveText('from changed live');

  // A restart setting: saved to settings.json, marked, the value in force unchanged.
  const restart = 'yukta.tracker.max-sessions';
  await expect(page.getByTestId(`setting-${restart}-restart`)).toHaveText('after restart');
  await page.getByTestId(`setting-${restart}-input`).fill('5');
  await page.getByTestId(`setting-${restart}-apply`).click();
  await expect(page.getByTestId(`setting-${restart}-status`)).toHaveText('Saved to settings.json: applies after a restart.');
  await expect(page.getByTestId(`setting-${restart}-pending`)).toHaveText('After restart: 5');
  await expect(page.getByTestId(`setting-${restart}-current`)).toHaveText('0');

  // The live one took effect: the Scheduler tab shows the new limit.
  await page.getByTestId('settings-close').click();
  await expect(page.getByTestId('settings-dialog')).toHaveCount(0);
  await page.getByTestId('scheduler-tab').click();
  await expect(page.getByTestId('scheduler-running-count')).toContainText('/ 3');
  await expect(page.getByTestId('limit-maxConcurrent')).toHaveValue('3');

  // Reopened, the restart value is still marked pending (read from the host, not remembered by the page).
  await openSettings(page, 'all');
  await expect(page.getByTestId(`setting-${restart}-pending`)).toHaveText('After restart: 5');
});

test('STU-07: a created key is shown once with Copy and works; a secret is set and never shown back', async ({ page, request }) => {
  await signIn(page, ADMIN_KEY);
  await openSettings(page, 'api-keys');
  await expect(page.getByTestId('api-key-root')).toContainText('environment');
  await page.getByTestId('api-key-name').fill('ci bot');
  await expect(page.getByTestId('api-key-create-problem')).toContainText('Key name:');
  await expect(page.getByTestId('api-key-create-submit')).toBeDisabled();
  await page.getByTestId('api-key-name').fill('ci-bot');
  await page.getByTestId('api-key-role').selectOption('OPERATOR');
  await page.getByTestId('api-key-create-submit').click();

  await expect(page.getByTestId('created-key')).toContainText('shown this once');
  await expect(page.getByTestId('created-key-copy')).toBeVisible();
  const key = await page.getByTestId('created-key-value').inputValue();
  expect(key.length).toBeGreaterThanOrEqual(16);
  await expect(page.getByTestId('api-key-role-ci-bot')).toHaveText('OPERATOR');
  // The key is real: the host answers it as the OPERATOR ci-bot.
  const whoami = await request.get(`${server!.base}/api/auth/whoami`, { headers: { authorization: `Bearer ${key}` } });
  expect(whoami.status(), await whoami.text()).toBe(200);
  expect(await whoami.json()).toMatchObject({ actor: 'key:ci-bot', role: 'OPERATOR' });

  await page.getByTestId('created-key-done').click();
  await expect(page.getByTestId('created-key')).toHaveCount(0);
  expect(await page.content()).not.toContain(key);
  // Reopened: the key is listed by name and fingerprint, its value nowhere.
  await page.getByTestId('settings-close').click();
  await openSettings(page, 'api-keys');
  await expect(page.getByTestId('api-key-ci-bot')).toBeVisible();
  await expect(page.getByTestId('created-key')).toHaveCount(0);
  expect(await page.content()).not.toContain(key);

  await page.getByTestId('settings-tab-secrets').click();
  await expect(page.getByTestId('secrets-empty')).toBeVisible();
  await page.getByTestId('secret-name').fill('openai');
  await page.getByTestId('secret-value').fill(SECRET_VALUE);
  await page.getByTestId('secret-save').click();
  await expect(page.getByTestId('secret-answer')).toHaveText('Saved "openai": its value is never shown back.');
  await expect(page.getByTestId('secret-value')).toHaveValue('');
  await expect(page.getByTestId('secret-value-openai')).toHaveText('••••');
  await expect(page.getByTestId('secret-openai')).toContainText('stored (encrypted)');
  expect(await page.content()).not.toContain(SECRET_VALUE);
  // Replace: the form opens with the name fixed and an empty value.
  await page.getByTestId('secret-replace-openai').click();
  await expect(page.getByTestId('secret-name')).toHaveValue('openai');
  await expect(page.getByTestId('secret-name')).toBeDisabled();
  await expect(page.getByTestId('secret-value')).toHaveValue('');
  await page.getByTestId('secret-replace-cancel').click();
});

test('STU-07: a VIEWER sees every setting, key and secret control disabled with the reason', async ({ page }) => {
  await signIn(page, VIEWER_KEY);
  await openSettings(page, 'all');
  const reason = 'Needs role ADMIN; you are signed in as VIEWER (key:watcher).';
  await expect(page.getByTestId('settings-role-notice')).toContainText('Signed in as VIEWER (key:watcher)');
  await expect(page.getByTestId('setting-yukta.execution.max-concurrent-input')).toBeDisabled();
  await expect(page.getByTestId('setting-yukta.execution.max-concurrent-disabled')).toHaveText(reason);
  await expect(page.getByTestId('setting-yukta.tracker.max-sessions-input')).toBeDisabled();
  // Every editor of the list is disabled: none is left enabled.
  const editors = page.locator('[data-testid$="-input"][data-testid^="setting-"]');
  expect(await editors.count()).toBeGreaterThan(10);
  for (const editor of await editors.all()) await expect(editor).toBeDisabled();

  await page.getByTestId('settings-tab-api-keys').click();
  await expect(page.getByTestId('api-keys-refused')).toHaveText(reason);
  await expect(page.getByTestId('api-key-name')).toBeDisabled();
  await expect(page.getByTestId('api-key-create-submit')).toBeDisabled();
  await page.getByTestId('settings-tab-secrets').click();
  await expect(page.getByTestId('secrets-refused')).toHaveText(reason);
  await expect(page.getByTestId('secret-value')).toBeDisabled();
  await page.getByTestId('settings-tab-variables').click();
  await expect(page.getByTestId('setting-yukta.variables.allowed-input')).toBeDisabled();
});
