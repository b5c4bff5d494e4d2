// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { useSettings } from '../../store/settings-store';
import { openStudio } from '../../test-support/open-app';
import { parseInput } from './setting-input';

afterEach(() => {
  cleanup();
  useSettings.getState().reset();
});

async function openSettings(tab: string) {
  const app = await openStudio('#/w/default/hello');
  fireEvent.click(screen.getByTestId('settings-button'));
  await screen.findByTestId('settings-general');
  fireEvent.mouseDown(screen.getByTestId(`settings-tab-${tab}`), { button: 0 });
  return app;
}

const typeInto = (testId: string, value: string) => fireEvent.change(screen.getByTestId(testId), { target: { value } });

describe('STU-07 the Settings screen', () => {
  it('opens from Ctrl+, (the command table) and names the data folder', async () => {
    await openStudio('#/w/default/hello');
    fireEvent.keyDown(window, { key: ',', ctrlKey: true });
    expect(await screen.findByTestId('settings-dialog')).toBeTruthy();
    expect((await screen.findByTestId('settings-data-dir')).textContent).toBe('/fake');
    expect(screen.getByTestId('settings-whoami').textContent).toBe('ADMIN ui:local');
  });

  it('refuses a bad value inline naming the setting and sends nothing; a good live one applies now', async () => {
    const app = await openSettings('all');
    const key = 'yukta.execution.max-concurrent';
    await screen.findByTestId(`setting-${key}`);
    typeInto(`setting-${key}-input`, 'lots');
    expect(screen.getByTestId(`setting-${key}-error`).textContent).toBe(
      'yukta.execution.max-concurrent must be a whole number from 0 to 10000000 (got "lots")',
    );
    expect((screen.getByTestId(`setting-${key}-apply`) as HTMLButtonElement).disabled).toBe(true);
    expect(app.fake.client['settings.set']).not.toHaveBeenCalled();

    typeInto(`setting-${key}-input`, '7');
    fireEvent.click(screen.getByTestId(`setting-${key}-apply`));
    await waitFor(() => expect(screen.getByTestId(`setting-${key}-status`).textContent).toBe('Applied now.'));
    expect(app.fake.client['settings.set']).toHaveBeenCalledWith({ key, value: 7 });
    expect(screen.getByTestId(`setting-${key}-current`).textContent).toBe('7');
  });

  it('marks a restart setting "after restart" and shows the value saved for the next start', async () => {
    await openSettings('all');
    const key = 'yukta.tracker.max-sessions';
    await screen.findByTestId(`setting-${key}`);
    expect(screen.getByTestId(`setting-${key}-restart`).textContent).toBe('after restart');
    typeInto(`setting-${key}-input`, '5');
    fireEvent.click(screen.getByTestId(`setting-${key}-apply`));
    await waitFor(() => expect(screen.getByTestId(`setting-${key}-pending`).textContent).toBe('After restart: 5'));
    // The entry (pending) is stored before the row hears the answer (status): a render may fall between them.
    await waitFor(() => expect(screen.getByTestId(`setting-${key}-status`).textContent).toBe('Saved to settings.json: applies after a restart.'));
  });

  it('shows a created key once: gone after Done, and after closing and reopening', async () => {
    await openSettings('api-keys');
    typeInto('api-key-name', 'ci-bot');
    fireEvent.change(screen.getByTestId('api-key-role'), { target: { value: 'OPERATOR' } });
    fireEvent.click(screen.getByTestId('api-key-create-submit'));
    const value = (await screen.findByTestId('created-key-value')) as HTMLInputElement;
    expect(value.value).toBe('yk_fake-key-1');
    expect(screen.getByTestId('api-key-role-ci-bot').textContent).toBe('OPERATOR');
    fireEvent.click(screen.getByTestId('created-key-done'));
    expect(screen.queryByTestId('created-key')).toBeNull();
    expect(document.body.innerHTML).not.toContain('yk_fake-key-1');
    fireEvent.click(screen.getByTestId('settings-close'));
    fireEvent.click(screen.getByTestId('settings-button'));
    fireEvent.mouseDown(await screen.findByTestId('settings-tab-api-keys'), { button: 0 });
    await screen.findByTestId('api-key-ci-bot');
    expect(document.body.innerHTML).not.toContain('yk_fake-key-1');
  });

  it('never shows a secret back: the field is emptied and the list shows the mask', async () => {
    const app = await openSettings('secrets');
    typeInto('secret-name', 'openai');
    typeInto('secret-value', 'sk-never-shown-4242');
    fireEvent.click(screen.getByTestId('secret-save'));
    await waitFor(() => expect(screen.getByTestId('secret-value-openai').textContent).toBe('••••'));
    expect(app.fake.client['secrets.set']).toHaveBeenCalledWith({ name: 'openai', value: 'sk-never-shown-4242' });
    expect((screen.getByTestId('secret-value') as HTMLInputElement).value).toBe('');
    expect(document.body.innerHTML).not.toContain('sk-never-shown-4242');
  });

  it('a VIEWER sees every control disabled with the reason and keys and secrets are not read', async () => {
    const app = await openStudio('#/w/default/hello');
    vi.mocked(app.fake.client['auth.whoami']).mockResolvedValue({ actor: 'key:watcher', role: 'VIEWER', sessions: null, keysRequired: true });
    fireEvent.click(screen.getByTestId('settings-button'));
    const reason = 'Needs role ADMIN; you are signed in as VIEWER (key:watcher).';
    expect((await screen.findByTestId('settings-role-notice')).textContent).toContain('Signed in as VIEWER (key:watcher)');
    fireEvent.mouseDown(screen.getByTestId('settings-tab-all'), { button: 0 });
    const list = await screen.findByTestId('setting-yukta.execution.max-concurrent');
    expect(within(list).getByTestId('setting-yukta.execution.max-concurrent-disabled').textContent).toBe(reason);
    const editors = document.querySelectorAll<HTMLInputElement>('[data-testid^="setting-"][data-testid$="-input"]');
    expect(editors.length).toBeGreaterThan(10);
    for (const editor of editors) expect(editor.disabled).toBe(true);
    fireEvent.mouseDown(screen.getByTestId('settings-tab-api-keys'), { button: 0 });
    expect((await screen.findByTestId('api-keys-refused')).textContent).toBe(reason);
    expect(app.fake.client['apiKeys.list']).not.toHaveBeenCalled();
    expect(app.fake.client['secrets.list']).not.toHaveBeenCalled();
  });
});

describe('CFG-01 a typed value checked by the table schema in the renderer', () => {
  it('reads text as an environment variable would, and names the setting when refused', () => {
    expect(parseInput('yukta.execution.queue-timeout', '30s')).toEqual({ ok: true, value: '30s' });
    expect(parseInput('yukta.execution.queue-timeout', 'soon')).toEqual({
      ok: false,
      error: 'yukta.execution.queue-timeout must be a duration such as 30s, 10m, 1h or a number of milliseconds, at most 2147483647ms (got "soon")',
    });
    expect(parseInput('yukta.variables.allowed', 'REGION, STAGE')).toEqual({ ok: true, value: ['REGION', 'STAGE'] });
    expect(parseInput('yukta.no-such-thing', '1')).toEqual({ ok: false, error: 'yukta.no-such-thing is not a setting of this studio' });
  });
});
