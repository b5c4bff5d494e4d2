// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Approval } from '../../../shared/api/control.schema';
import { approvalLink, parseApprovalLink } from '../../../shared/api/approval-notice';
import { App } from '../../App';
import { setEditorText } from '../../test-support/codemirror';
import { createFakeControl } from '../../test-support/fake-control';
import { createFakeStudioClient, storedWorkflow } from '../../test-support/fake-studio-client';
import { CHAIN } from '../../test-support/open-app';
import { manualFrames, resetStores } from '../../test-support/reset-stores';
import { approvalKey, useInbox } from '../../store/inbox-store';
import { browserAnnouncer, type NotificationApi } from './browser-notifications';
import { createInboxActions } from './inbox-actions';

const approval = (n: number, since: number, workflowId = 'orders'): Approval => ({
  executionId: `run-${n}`,
  session: 'default',
  workflowId,
  nodeId: 'gate',
  signal: 'manager',
  messageId: `m${n}`,
  payload: { order: n },
  since,
});

beforeEach(() => {
  resetStores();
  window.history.replaceState(null, '', '#/w/default/hello');
});
afterEach(cleanup);

async function openWithApprovals(approvals: Approval[]) {
  const fake = createFakeStudioClient([storedWorkflow(CHAIN)]);
  const control = createFakeControl();
  control.state.approvals.push(...approvals);
  Object.assign(fake.client, control.ops);
  const frames = manualFrames();
  render(<App client={fake.client} schedule={frames.schedule} />);
  await screen.findByTestId('palette-item-API_TRIGGER');
  await waitFor(() => expect(screen.getByTestId('inbox-count').textContent).toBe(String(approvals.length)));
  return { fake, control, frames };
}

const key = (target: Element | Window, k: string, init: KeyboardEventInit = {}) => fireEvent.keyDown(target, { key: k, ...init });

describe('STU-05 approval inbox', () => {
  it('badge, Ctrl+Shift+I, oldest first; J/K move; A approves with the typed JSON data; R rejects; Escape closes', async () => {
    const { control } = await openWithApprovals([approval(2, 200, 'billing'), approval(1, 100)]);
    act(() => void key(window, 'I', { ctrlKey: true, shiftKey: true }));
    const list = await screen.findByTestId('inbox-list');
    expect(screen.getByTestId('inbox-item-0').textContent).toContain('orders'); // oldest first
    expect(screen.getByTestId('inbox-item-0').getAttribute('aria-selected')).toBe('true');
    expect(screen.getByTestId('inbox-payload').textContent).toContain('order: 1');

    key(list, 'j');
    expect(screen.getByTestId('inbox-item-1').getAttribute('aria-selected')).toBe('true');
    expect(screen.getByTestId('inbox-payload').textContent).toContain('order: 2');
    key(list, 'j'); // stays on the last one
    expect(screen.getByTestId('inbox-item-1').getAttribute('aria-selected')).toBe('true');
    key(list, 'k');
    expect(screen.getByTestId('inbox-item-0').getAttribute('aria-selected')).toBe('true');

    // Bad JSON data is named, nothing is sent.
    const data = await screen.findByTestId('inbox-data');
    act(() => setEditorText(data, '{"by": '));
    key(list, 'a');
    expect(await screen.findByTestId('inbox-data-error')).toBeTruthy();
    expect(control.state.commands).toEqual([]);

    act(() => setEditorText(screen.getByTestId('inbox-data'), '{"by": "ops"}'));
    await act(async () => void key(list, 'A'));
    expect(control.state.commands).toEqual([{ executionId: 'run-1', command: { type: 'Signal', nodeId: 'gate', decision: 'APPROVE', data: { by: 'ops' } } }]);
    await waitFor(() => expect(screen.getByTestId('inbox-count').textContent).toBe('1'));
    expect(screen.getByTestId('inbox-item-0').getAttribute('aria-selected')).toBe('true');

    await act(async () => void key(screen.getByTestId('inbox-list'), 'r'));
    expect(control.state.commands[1]).toEqual({ executionId: 'run-2', command: { type: 'Signal', nodeId: 'gate', decision: 'REJECT' } });
    expect(await screen.findByTestId('inbox-empty')).toBeTruthy();
    expect(screen.queryByTestId('inbox-count')).toBeNull();

    key(screen.getByTestId('inbox-panel'), 'Escape');
    expect(screen.queryByTestId('inbox-panel')).toBeNull();
  });

  it('keys typed in the data field stay in the field', async () => {
    const { control } = await openWithApprovals([approval(1, 100)]);
    fireEvent.click(screen.getByTestId('inbox-button'));
    const data = await screen.findByTestId('inbox-data');
    key(data, 'a');
    key(data, 'j');
    expect(control.state.commands).toEqual([]);
    expect(useInbox.getState().open).toBe(true);
  });

  it('reads the inbox again on APPROVAL events and announces each new approval once', async () => {
    const fake = createFakeStudioClient();
    const control = createFakeControl();
    Object.assign(fake.client, control.ops);
    const announce = vi.fn();
    const actions = createInboxActions(fake.client, announce);
    control.state.approvals.push(approval(1, 100));
    actions.approvalsChanged([{ type: 'APPROVAL', seq: 1, executionId: 'run-1', at: 100, nodeId: 'gate', signal: 'manager', messageId: 'm1', state: 'OPEN' }]);
    await waitFor(() => expect(useInbox.getState().approvals).toHaveLength(1));
    expect(announce).toHaveBeenCalledTimes(1);
    expect(announce.mock.calls[0]![0]).toMatchObject({ executionId: 'run-1', workflowId: 'orders' });
    control.state.approvals.length = 0;
    actions.approvalsChanged([
      { type: 'APPROVAL', seq: 2, executionId: 'run-1', at: 101, nodeId: 'gate', signal: 'manager', messageId: 'm1', state: 'CLOSED', decision: 'APPROVED' },
    ]);
    await waitFor(() => expect(useInbox.getState().approvals).toHaveLength(0));
    expect(announce).toHaveBeenCalledTimes(1);
  });

  it('in a browser: a notification per new approval when permitted, clicking opens the item; nothing in the desktop app', () => {
    const made: Array<{ title: string; options?: NotificationOptions; onclick: (() => void) | null; closed: boolean }> = [];
    class FakeNotification {
      static permission: NotificationPermission = 'granted';
      static requestPermission = vi.fn(async () => 'granted' as NotificationPermission);
      onclick: (() => void) | null = null;
      closed = false;
      constructor(
        readonly title: string,
        readonly options?: NotificationOptions,
      ) {
        made.push(this);
      }
      close() {
        this.closed = true;
      }
    }
    const open = vi.fn();
    const announce = browserAnnouncer(open, FakeNotification as unknown as NotificationApi)!;
    announce(approval(1, 100));
    expect(made[0]).toMatchObject({ title: 'Approval needed: orders', options: { body: 'gate waits for "manager" (run run-1)', tag: 'run-1/gate/m1' } });
    made[0]!.onclick!();
    expect(open).toHaveBeenCalledWith('run-1/gate/m1');
    expect(made[0]!.closed).toBe(true);
    FakeNotification.permission = 'denied';
    announce(approval(2, 200));
    expect(made).toHaveLength(1);
  });

  it('an inbox link (#/inbox/run/node/message) opens the inbox at that approval and puts the workflow back in the address', async () => {
    expect(parseApprovalLink(approvalLink(approval(7, 1)))).toEqual({ executionId: 'run-7', nodeId: 'gate', messageId: 'm7' });
    expect(parseApprovalLink('#/w/default/x')).toBeNull();
    await openWithApprovals([approval(1, 100), approval(2, 200)]);
    await waitFor(() => expect(window.location.hash).toBe('#/w/default/hello'));
    act(() => {
      window.location.hash = approvalLink(approval(2, 200));
    });
    await waitFor(() => expect(screen.getByTestId('inbox-item-1').getAttribute('aria-selected')).toBe('true'));
    expect(useInbox.getState().selected).toBe(approvalKey(approval(2, 200)));
    await waitFor(() => expect(window.location.hash).toBe('#/w/default/hello'));
  });
});
