// @vitest-environment happy-dom
import { act, cleanup, render } from '@testing-library/react';
import { memo } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { createLiveStore, mergeNodeStates } from './live-store';

afterEach(cleanup);

const counts = (received: number, emitted = 0) => ({ received, emitted });

describe('OBS-01 live status store (narrow per-node updates)', () => {
  it('re-renders only the node whose status changed', () => {
    const useLive = createLiveStore();
    const renders: Record<string, number> = {};
    // Same subscription shape as the canvas node: `useLive(s => s.nodes[id])`.
    const Probe = memo(function Probe({ id }: { id: string }) {
      const state = useLive((s) => s.nodes[id]);
      renders[id] = (renders[id] ?? 0) + 1;
      return <span data-testid={id}>{state?.status ?? 'NONE'}</span>;
    });
    const ids = ['a', 'b', 'c', 'd'];
    const view = render(
      <>
        {ids.map((id) => (
          <Probe key={id} id={id} />
        ))}
      </>,
    );
    act(() => useLive.getState().show('run-1'));
    act(() =>
      useLive.getState().applyNodes(
        'run-1',
        ids.map((nodeId) => ({ nodeId, status: 'PENDING' as const, counts: counts(0) })),
      ),
    );
    const before = { ...renders };

    act(() => useLive.getState().applyNodes('run-1', [{ nodeId: 'b', status: 'RUNNING', counts: counts(1) }]));
    expect(view.getByTestId('b').textContent).toBe('RUNNING');
    expect(renders['b']).toBe(before['b']! + 1);
    for (const id of ['a', 'c', 'd']) expect(renders[id]).toBe(before[id]);
  });

  it('merges forward only: a late PENDING or RUNNING never undoes SUCCESS; counts only grow', () => {
    const useLive = createLiveStore();
    useLive.getState().show('run-1');
    useLive.getState().applyNodes('run-1', [{ nodeId: 'a', status: 'SUCCESS', counts: counts(3, 3) }]);
    useLive.getState().applyNodes('run-1', [{ nodeId: 'a', status: 'RUNNING', counts: counts(1, 0) }]);
    expect(useLive.getState().nodes['a']).toEqual({ status: 'SUCCESS', counts: counts(3, 3) });
  });

  it('STU-03 the attempt running now: set by a NODE_STATUS that carries it, cleared by one without it, kept by a snapshot', () => {
    const first = mergeNodeStates({}, [{ nodeId: 'a', status: 'RUNNING', counts: counts(1), attempt: 2 }]);
    expect(first['a']?.attempt).toBe(2);
    const snapshot = mergeNodeStates(first, [{ nodeId: 'a', status: 'RUNNING', counts: counts(1) }]);
    expect(snapshot).toBe(first);
    const next = mergeNodeStates(first, [{ nodeId: 'a', status: 'RUNNING', counts: counts(1), attempt: 3 }]);
    expect(next['a']?.attempt).toBe(3);
    const done = mergeNodeStates(next, [{ nodeId: 'a', status: 'SUCCESS', counts: counts(1, 1), attempt: null }]);
    expect(done['a']).toEqual({ status: 'SUCCESS', counts: counts(1, 1) });
  });

  it('ignores updates of a run that is not shown', () => {
    const useLive = createLiveStore();
    useLive.getState().show('run-2');
    useLive.getState().applyNodes('run-1', [{ nodeId: 'a', status: 'RUNNING', counts: counts(0) }]);
    expect(useLive.getState().nodes).toEqual({});
  });

  it('keeps the identity of the map when an update changes nothing', () => {
    const current = mergeNodeStates({}, [{ nodeId: 'a', status: 'RUNNING', counts: counts(2) }]);
    expect(mergeNodeStates(current, [{ nodeId: 'a', status: 'PENDING', counts: counts(1) }])).toBe(current);
  });
});
