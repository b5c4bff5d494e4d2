import { describe, expect, it, vi } from 'vitest';
import type { Approval } from '../../shared/api/control.schema';
import type { StudioEvent } from '../../shared/events/events';
import { startApprovalNotifier } from './approval-notifier';

const approval = (n: number): Approval => ({
  executionId: `run-${n}`,
  session: 'default',
  workflowId: 'orders',
  nodeId: 'gate',
  signal: 'manager',
  messageId: `m${n}`,
  payload: { n },
  since: n,
});
const event = (n: number, state: 'OPEN' | 'CLOSED'): StudioEvent => ({
  type: 'APPROVAL',
  seq: n,
  executionId: `run-${n}`,
  at: n,
  nodeId: 'gate',
  signal: 'manager',
  messageId: `m${n}`,
  state,
  ...(state === 'CLOSED' ? { decision: 'APPROVED' as const } : {}),
});

/** A fake host feed and desktop: the test pushes batches and sets what `approvals.list` answers. */
function fakeDesktop(initial: Approval[] = []) {
  let listener: ((batch: StudioEvent[]) => void) | null = null;
  const open = [...initial];
  const notices: Array<{ title: string; body: string; onClick: () => void }> = [];
  const deps = {
    subscribe: vi.fn((_filter, l: (batch: StudioEvent[]) => void) => ((listener = l), () => (listener = null))),
    listApprovals: vi.fn(async () => [...open]),
    notify: vi.fn((n: { title: string; body: string; onClick: () => void }) => void notices.push(n)),
    setBadge: vi.fn(),
    openLink: vi.fn(),
  };
  return { deps, open, notices, push: (batch: StudioEvent[]) => listener?.(batch), subscribed: () => listener !== null };
}

const settle = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

describe('STU-05 desktop notifications and badge (main process, no Electron)', () => {
  it('sets the badge at start without notifying approvals already open', async () => {
    const desktop = fakeDesktop([approval(1), approval(2)]);
    const notifier = startApprovalNotifier(desktop.deps);
    await notifier.ready;
    expect(desktop.deps.setBadge).toHaveBeenLastCalledWith(2);
    expect(desktop.deps.notify).not.toHaveBeenCalled();
    expect(desktop.deps.subscribe.mock.calls[0]![0]).toEqual({ type: ['APPROVAL'] });
  });

  it('notifies once per new approval; a click opens the inbox item; the badge follows opens and closes', async () => {
    const desktop = fakeDesktop();
    const notifier = startApprovalNotifier(desktop.deps);
    await notifier.ready;
    desktop.open.push(approval(3));
    desktop.push([event(3, 'OPEN')]);
    await settle();
    expect(desktop.notices).toHaveLength(1);
    expect(desktop.notices[0]).toMatchObject({ title: 'Approval needed: orders', body: 'gate waits for "manager" (run run-3)' });
    expect(desktop.deps.setBadge).toHaveBeenLastCalledWith(1);
    desktop.notices[0]!.onClick();
    expect(desktop.deps.openLink).toHaveBeenCalledWith('#/inbox/run-3/gate/m3');

    desktop.open.length = 0;
    desktop.push([event(3, 'CLOSED')]);
    await settle();
    expect(desktop.deps.setBadge).toHaveBeenLastCalledWith(0);
    expect(desktop.notices).toHaveLength(1); // a close is not announced, and nothing twice
  });

  it('one that opened and closed before the read is not announced; a burst makes at most two reads', async () => {
    const desktop = fakeDesktop();
    const notifier = startApprovalNotifier(desktop.deps);
    await notifier.ready;
    desktop.deps.listApprovals.mockClear();
    desktop.push([event(4, 'OPEN'), event(4, 'CLOSED')]);
    for (let i = 5; i < 25; i++) desktop.push([event(i, 'OPEN')]);
    await settle();
    await settle();
    expect(desktop.deps.listApprovals.mock.calls.length).toBeLessThanOrEqual(2);
    expect(desktop.notices).toEqual([]); // none of them is in the list any more
  });

  it('a failed read changes nothing; stop unsubscribes', async () => {
    const desktop = fakeDesktop([approval(1)]);
    desktop.deps.listApprovals.mockRejectedValueOnce(new Error('host closed'));
    const notifier = startApprovalNotifier(desktop.deps);
    await notifier.ready;
    expect(desktop.deps.setBadge).not.toHaveBeenCalled();
    notifier.stop();
    expect(desktop.subscribed()).toBe(false);
  });
});
