// @vitest-environment happy-dom
import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useStudio } from '../../store/studio-store';
import { openStudio } from '../../test-support/open-app';

afterEach(cleanup);

async function openSessions() {
  fireEvent.click(screen.getByTestId('sessions-button'));
  return screen.findByTestId('sessions-dialog');
}

describe('STU-07 sessions in the app bar', () => {
  it('creates, renames and deletes (after confirmation) a session; the picker follows', async () => {
    await openStudio('#/');
    await waitFor(() => expect(screen.getByTestId('session-picker').textContent).toContain('default'));
    await openSessions();
    fireEvent.change(screen.getByTestId('session-create-input'), { target: { value: 'staging' } });
    fireEvent.click(screen.getByTestId('session-create-submit'));
    await screen.findByTestId('session-row-staging');

    fireEvent.click(screen.getByTestId('session-rename-staging'));
    fireEvent.change(screen.getByTestId('session-rename-input'), { target: { value: 'qa' } });
    fireEvent.click(screen.getByTestId('session-rename-submit'));
    await screen.findByTestId('session-row-qa');
    expect(screen.queryByTestId('session-row-staging')).toBeNull();

    fireEvent.click(screen.getByTestId('session-delete-qa'));
    const confirm = await screen.findByTestId('confirm-dialog');
    expect(confirm.textContent).toContain('Delete session "qa"?');
    fireEvent.click(within(confirm).getByTestId('confirm-ok'));
    await waitFor(() => expect(screen.queryByTestId('session-row-qa')).toBeNull());
    expect([...(screen.getByTestId('session-picker') as HTMLSelectElement).options].map((o) => o.value)).toEqual(['default']);
  });

  it('shows a refusal in the dialog (a name taken, runs live) and changes nothing', async () => {
    const { fake } = await openStudio('#/');
    await openSessions();
    fireEvent.change(screen.getByTestId('session-create-input'), { target: { value: 'default' } });
    fireEvent.click(screen.getByTestId('session-create-submit'));
    expect((await screen.findByTestId('sessions-error')).textContent).toMatch(/Creating "default" refused: session "default" already exists/);

    fireEvent.change(screen.getByTestId('session-create-input'), { target: { value: 'a/b' } });
    fireEvent.click(screen.getByTestId('session-create-submit'));
    expect(screen.getByTestId('sessions-error').textContent).toContain('path separator');

    fake.history.createSession('busy');
    fake.history.liveSessions.add('busy');
    fireEvent.click(screen.getByTestId('sessions-close'));
    await openSessions();
    await waitFor(() => expect(useStudio.getState().sessions.map((s) => s.session)).toContain('busy'));
    fireEvent.click(await screen.findByTestId('session-delete-busy'));
    fireEvent.click(await screen.findByTestId('confirm-ok'));
    expect((await screen.findByTestId('sessions-error')).textContent).toContain('has live runs');
    expect(screen.getByTestId('session-row-busy')).toBeTruthy();
  });

  it('switching session guards unsaved changes, then opens a new workflow in that session', async () => {
    const { fake } = await openStudio('#/w/default/hello');
    await screen.findByTestId('node-shape');
    fake.history.createSession('staging');
    useStudio.getState().setSessions(fake.history.sessionList());
    useStudio.getState().setWorkflowId('hello-edited');
    fireEvent.change(await screen.findByTestId('session-picker'), { target: { value: 'staging' } });
    fireEvent.click(await screen.findByTestId('confirm-cancel'));
    await waitFor(() => expect(screen.queryByTestId('confirm-dialog')).toBeNull());
    expect(useStudio.getState()).toMatchObject({ session: 'default', workflowId: 'hello-edited' });

    fireEvent.change(screen.getByTestId('session-picker'), { target: { value: 'staging' } });
    fireEvent.click(await screen.findByTestId('confirm-ok'));
    await waitFor(() => expect(useStudio.getState().session).toBe('staging'));
    expect(useStudio.getState()).toMatchObject({ workflowId: '', nodes: [], dirty: false });
    expect(window.location.hash).toBe('#/s/staging');
  });
});
