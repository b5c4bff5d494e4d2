// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { StudioApiError } from '../../../shared/api/errors';
import type { QueuedRunView, SchedulerView } from '../../../shared/api/scheduler.schema';
import type { StudioEvent } from '../../../shared/events/events';
import { useScheduler } from '../../store/scheduler-store';
import { openStudio } from '../../test-support/open-app';
import { buildStart, EMPTY_START_FIELDS } from '../workflow/start-fields';

afterEach(() => {
  cleanup();
  useScheduler.setState({ view: null, error: null, readAt: null });
});

function waiting(executionId: string, priority: number, position: number): QueuedRunView {
  return {
    executionId,
    session: 'default',
    workflowId: 'hello',
    priority,
    fairnessKey: 'session:default',
    fairnessWeight: 1,
    enqueuedAt: 1000,
    position,
    ahead: position - 1,
    blockedBy: [{ cap: 'max-concurrent', limit: 1 }],
    reason: 'waiting for a slot (max-concurrent 1)',
  };
}

function withQueue(view: SchedulerView): SchedulerView {
  return {
    ...view,
    limits: { ...view.limits, maxConcurrent: 1 },
    metrics: { ...view.metrics, running: 1, queued: 3 },
    running: [
      { executionId: 'blocker-1', session: 'default', workflowId: 'hello', priority: 0, fairnessKey: 'session:default', fairnessWeight: 1, grantedAt: 900 },
    ],
    queued: [waiting('run-b', 5, 1), waiting('run-c', 1, 2), waiting('run-a', 0, 3)],
    byWorkflow: [{ session: 'default', workflowId: 'hello', running: 1, queued: 3 }],
    bySession: [{ session: 'default', running: 1, queued: 3 }],
  };
}

const status = (executionId: string, s: 'QUEUED' | 'RUNNING' | 'SUCCESS'): StudioEvent => ({
  type: 'EXECUTION_STATUS',
  seq: 1,
  executionId,
  at: 1,
  session: 'default',
  workflowId: 'hello',
  definitionVersion: 'v0',
  status: s,
});

async function openScheduler() {
  const app = await openStudio('#/w/default/hello');
  app.fake.scheduler.view = withQueue(app.fake.scheduler.view);
  fireEvent.mouseDown(screen.getByTestId('scheduler-tab'), { button: 0 });
  await screen.findByTestId('scheduler-queue');
  return app;
}

describe('STU-06 scheduler panel', () => {
  it('shows the queue in admission order with why each start waits, and the counts per workflow and session', async () => {
    await openScheduler();
    const rows = screen.getAllByTestId(/^queued-row-/);
    expect(rows.map((r) => r.getAttribute('data-priority'))).toEqual(['5', '1', '0']);
    expect(screen.getByTestId('queued-reason-run-c').textContent).toBe('waiting for a slot (max-concurrent 1) · 1 ahead');
    expect(screen.getByTestId('queued-reason-run-b').textContent).toContain('· next');
    expect(screen.getByTestId('scheduler-running-count').textContent).toBe('Running 1 / 1');
    expect(screen.getByTestId('running-row-blocker-1')).toBeTruthy();
    expect(
      within(screen.getByTestId('group-workflow-default-hello'))
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['hello', '1', '3']);
  });

  it("changes a queued start's priority and re-reads the queue", async () => {
    const { fake } = await openScheduler();
    fireEvent.change(screen.getByTestId('queued-priority-run-a'), { target: { value: '9' } });
    fireEvent.click(screen.getByTestId('queued-priority-set-run-a'));
    await waitFor(() => expect(screen.getAllByTestId(/^queued-row-/)[0]!.getAttribute('data-testid')).toBe('queued-row-run-a'));
    expect(fake.client['runs.setPriority']).toHaveBeenCalledWith({ executionId: 'run-a', priority: 9 });
  });

  it('applies only the limits that changed, and names a bad value at its field', async () => {
    const { fake } = await openScheduler();
    const apply = screen.getByTestId('scheduler-limits-apply') as HTMLButtonElement;
    expect(apply.disabled).toBe(true);
    fireEvent.change(screen.getByTestId('limit-maxConcurrent'), { target: { value: '-2' } });
    expect(screen.getByRole('alert').textContent).toBe('Max concurrent must be a whole number, 0 or more');
    expect(apply.disabled).toBe(true);
    fireEvent.change(screen.getByTestId('limit-maxConcurrent'), { target: { value: '3' } });
    fireEvent.change(screen.getByTestId('limit-onLimit'), { target: { value: 'REJECT' } });
    fireEvent.click(apply);
    await waitFor(() => expect(fake.client['scheduler.setLimits']).toHaveBeenCalledWith({ maxConcurrent: 3, onLimit: 'REJECT' }));
    await waitFor(() => expect((screen.getByTestId('limit-maxConcurrent') as HTMLInputElement).value).toBe('3'));
  });

  it('says which role a refused change needs', async () => {
    const { fake } = await openScheduler();
    (fake.client['scheduler.setLimits'] as unknown as { mockRejectedValueOnce(e: unknown): void }).mockRejectedValueOnce(
      new StudioApiError('FORBIDDEN', 'scheduler.setLimits needs role ADMIN'),
    );
    fireEvent.change(screen.getByTestId('limit-queueCapacity'), { target: { value: '10' } });
    fireEvent.click(screen.getByTestId('scheduler-limits-apply'));
    expect((await screen.findByTestId('scheduler-error')).textContent).toBe('Changing limits needs role ADMIN.');
  });

  it('re-reads on QUEUED / RUNNING / terminal events, at most once per frame, and not for others', async () => {
    const { fake, frames } = await openScheduler();
    const get = fake.client['scheduler.get'] as unknown as { mock: { calls: unknown[] } };
    const before = get.mock.calls.length;
    act(() => {
      fake.emit([status('x', 'QUEUED'), status('y', 'RUNNING')]);
      fake.emit([status('z', 'SUCCESS')]);
    });
    act(() => frames.frame());
    await waitFor(() => expect(get.mock.calls.length).toBe(before + 1));
    act(() => fake.emit([{ type: 'NODE_STATUS', seq: 2, executionId: 'x', at: 1, nodeId: 'n', status: 'RUNNING', counts: { received: 0, emitted: 0 } }]));
    act(() => frames.frame());
    expect(get.mock.calls.length).toBe(before + 1);
  });
});

describe('STU-06 start dialog', () => {
  it('turns the fields into scheduling keys of the payload and an idempotency key', () => {
    const start = buildStart({
      ...EMPTY_START_FIELDS,
      payload: '{"name": "Ada", "yukta.priority": 1}',
      priority: '5',
      fairnessKey: 'tenant-42',
      fairnessWeight: '4',
      timeBudget: '60000',
      idempotencyKey: ' order-7 ',
    });
    expect(start).toEqual({
      ok: true,
      payload: { name: 'Ada', 'yukta.priority': 5, 'yukta.fairnessKey': 'tenant-42', 'yukta.fairnessWeight': 4, 'yukta.timeBudget': 60000 },
      idempotencyKey: 'order-7',
    });
    expect(buildStart(EMPTY_START_FIELDS)).toEqual({ ok: true, payload: {} });
  });

  it("names every bad field with the host's own rules", () => {
    const start = buildStart({ ...EMPTY_START_FIELDS, payload: '[1]', priority: 'high', fairnessKey: 'has space', fairnessWeight: '0', timeBudget: '1.5' });
    expect(start.ok).toBe(false);
    expect(!start.ok && Object.keys(start.errors).sort()).toEqual(['fairnessKey', 'fairnessWeight', 'payload', 'priority', 'timeBudget']);
  });

  it('starts a run with the priority, fairness and idempotency key from the dialog', async () => {
    const { fake } = await openStudio('#/w/default/hello');
    fireEvent.click(screen.getByTestId('run-with-payload-button'));
    fireEvent.change(screen.getByTestId('run-payload-fairnessKey'), { target: { value: 'bad key' } });
    fireEvent.click(screen.getByTestId('run-payload-submit'));
    expect(screen.getByTestId('run-payload-dialog').textContent).toContain('Fairness key must be 1 to 256');
    fireEvent.change(screen.getByTestId('run-payload-fairnessKey'), { target: { value: 'tenant-1' } });
    fireEvent.change(screen.getByTestId('run-payload-priority'), { target: { value: '5' } });
    fireEvent.change(screen.getByTestId('run-payload-idempotencyKey'), { target: { value: 'k-1' } });
    fireEvent.click(screen.getByTestId('run-payload-submit'));
    await waitFor(() =>
      expect(fake.client['runs.start']).toHaveBeenCalledWith({
        session: 'default',
        workflowId: 'hello',
        payload: { 'yukta.priority': 5, 'yukta.fairnessKey': 'tenant-1' },
        idempotencyKey: 'k-1',
      }),
    );
  });
});
