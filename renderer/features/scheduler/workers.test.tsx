// @vitest-environment happy-dom
import { act, cleanup, fireEvent, screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { WorkersView } from '../../../shared/api/workers.schema';
import { useLive } from '../../store/live-store';
import { CHAIN, definition, openStudio, selectNode } from '../../test-support/open-app';

afterEach(cleanup);

const VIEW: WorkersView = {
  at: 10_000,
  listener: 'ws://127.0.0.1:4320/workers',
  leaseMs: 15_000,
  pools: [
    { pool: 'gpu', workers: 2, draining: 1, slots: 5, used: 3, waiting: 2 },
    { pool: 'cpu', workers: 1, draining: 0, slots: 1, used: 0, waiting: 0 },
  ],
  workers: [
    {
      name: 'g1',
      pool: 'gpu',
      peer: '10.0.0.5:50000',
      version: '0.1.0',
      allow: ['LLM_CALL'],
      slots: 4,
      used: 3,
      free: 1,
      draining: false,
      connectedAt: 1000,
      leaseAgeMs: 2500,
      attempts: { SUCCESS: 7, FAILURE: 1, LOST: 0, CANCELLED: 0 },
    },
    {
      name: 'g2',
      pool: 'gpu',
      peer: '10.0.0.6:50001',
      version: '0.1.0',
      allow: ['LLM_CALL'],
      slots: 1,
      used: 0,
      free: 1,
      draining: true,
      connectedAt: 1000,
      leaseAgeMs: 400,
      attempts: { SUCCESS: 0, FAILURE: 0, LOST: 2, CANCELLED: 0 },
    },
    {
      name: 'c1',
      pool: 'cpu',
      peer: '10.0.0.7:50002',
      version: '0.2.0',
      allow: ['TRANSFORM'],
      slots: 1,
      used: 0,
      free: 1,
      draining: false,
      connectedAt: 1000,
      leaseAgeMs: 0,
      attempts: { SUCCESS: 0, FAILURE: 0, LOST: 0, CANCELLED: 0 },
    },
  ],
};

const cells = (testId: string) =>
  within(screen.getByTestId(testId))
    .getAllByRole('cell')
    .map((c) => c.textContent);

describe('STU-06 SCL-01 remote workers in the studio', () => {
  it('lists pools and workers in the Scheduler tab: slots used/free, lease age, running, version, draining', async () => {
    const { fake } = await openStudio('#/w/default/hello');
    fake.workers.view = VIEW;
    fireEvent.mouseDown(screen.getByTestId('scheduler-tab'), { button: 0 });
    await screen.findByTestId('workers-list');
    expect(cells('workers-pool-gpu')).toEqual(['gpu', '2 (1 draining)', '3 / 5', '2']);
    expect(cells('worker-g1')).toEqual(['g1', 'gpu', '3 / 1', '3', '2.5 s', '7 / 1 / 0', '0.1.0', 'taking attempts']);
    expect(cells('worker-g2')).toEqual(['g2', 'gpu', '0 / 1', '0', '400 ms', '0 / 0 / 2', '0.1.0', 'draining']);
    expect(screen.getByTestId('workers-listener').textContent).toBe('Workers connect at ws://127.0.0.1:4320/workers; lease 15.0 s.');
    expect(screen.getByTestId('workers-gauge').textContent).toBe('Workers 3 · 3 / 6 slots used');
  });

  it('says how to start a worker when none is connected', async () => {
    const { fake } = await openStudio('#/w/default/hello');
    fake.workers.view = { ...VIEW, pools: [], workers: [] };
    fireEvent.mouseDown(screen.getByTestId('scheduler-tab'), { button: 0 });
    expect((await screen.findByTestId('workers-empty')).textContent).toBe(
      'No worker is connected. Start one with: npx yukta worker --control-plane ws://127.0.0.1:4320/workers --pool NAME --token …',
    );
    expect(screen.getByTestId('workers-gauge').textContent).toBe('Workers 0');
  });

  it('shows no workers gauge when the host takes no workers', async () => {
    const { fake } = await openStudio('#/w/default/hello');
    fake.workers.view = { ...VIEW, listener: null, pools: [], workers: [] };
    fireEvent.mouseDown(screen.getByTestId('scheduler-tab'), { button: 0 });
    expect((await screen.findByTestId('workers-empty')).textContent).toBe(
      'This host takes no workers: set yukta.workers.enabled (and yukta.workers.token), then restart it.',
    );
    expect(screen.queryByTestId('workers-gauge')).toBeNull();
  });

  it("offers the connected pools in the policy form's pool field", async () => {
    const { fake } = await openStudio('#/w/default/hello');
    fake.workers.view = VIEW;
    selectNode('shape');
    const options = await screen.findByTestId('field-engine.placement.pool-pools');
    await act(async () => undefined);
    expect([...options.querySelectorAll('option')].map((o) => o.getAttribute('value'))).toEqual(['cpu', 'gpu']);
    expect(screen.getByTestId('field-engine.placement.pool').getAttribute('placeholder')).toBe('connected: cpu, gpu');
  });

  it('shows in the inspector which worker ran each attempt of a placed node', async () => {
    const placed = definition({
      ...CHAIN,
      nodes: CHAIN.nodes.map((n) => (n.nodeId === 'shape' ? { ...n, config: { ...n.config, engine: { placement: { pool: 'gpu' } } } } : n)),
    });
    const { fake } = await openStudio('#/w/default/hello', [{ session: 'default', definition: placed, version: 'v0', savedAt: 1 }]);
    fake.workers.attempts = [
      {
        nodeId: 'shape',
        messageId: 'start#1',
        attempt: 1,
        pool: 'gpu',
        worker: 'g2',
        startedAt: 1000,
        endedAt: 1040,
        outcome: 'LOST',
        error: {
          name: 'WorkerLostError',
          code: 'WORKER_LOST',
          message: 'worker "g2" (pool gpu) was lost during attempt 1 of node "shape": its connection closed (code 1006)',
        },
      },
      { nodeId: 'shape', messageId: 'start#1', attempt: 2, pool: 'gpu', worker: 'g1', startedAt: 1100, endedAt: 1103, outcome: 'SUCCESS' },
    ];
    act(() => useLive.getState().show('run-1'));
    act(() => useLive.getState().applyNodes('run-1', [{ nodeId: 'shape', status: 'SUCCESS', counts: { received: 1, emitted: 1, retried: 1 } }]));
    selectNode('shape');
    await screen.findByTestId('remote-attempt-1');
    expect(cells('remote-attempt-0')).toEqual(['1', 'start#1', 'g2', 'LOST', '40 ms']);
    expect(cells('remote-attempt-1')).toEqual(['2', 'start#1', 'g1', 'SUCCESS', '3 ms']);
    expect(screen.getByTestId('remote-attempt-errors').textContent).toContain(
      'attempt 1 (g2): worker "g2" (pool gpu) was lost during attempt 1 of node "shape"',
    );
    expect(fake.client['workers.attempts']).toHaveBeenCalledWith({ executionId: 'run-1', nodeId: 'shape' });
  });
});
