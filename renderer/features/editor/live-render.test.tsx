// @vitest-environment happy-dom
import { act, cleanup, render, screen } from '@testing-library/react';
import { ReactFlow, ReactFlowProvider, type NodeProps } from '@xyflow/react';
import { memo, Profiler, type ProfilerOnRenderCallback } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { StudioEvent } from '../../../shared/events/events';
import type { StudioNode } from '../../store/graph-model';
import { useLive } from '../../store/live-store';
import { resetStores } from '../../test-support/reset-stores';
import { applyStudioEvents } from '../runs/apply-events';
import { StudioNodeComponent } from './StudioNode';

const IDS = ['a', 'b', 'c', 'd', 'e', 'f'];
const NODES: StudioNode[] = IDS.map((id, i) => ({ id, type: 'studio', position: { x: i * 200, y: 0 }, data: { type: 'TRANSFORM', config: {} } }));
const status = (
  seq: number,
  nodeId: string,
  s: 'PENDING' | 'RUNNING' | 'SUCCESS',
  received: number,
  extra: Partial<Extract<StudioEvent, { type: 'NODE_STATUS' }>> = {},
): StudioEvent => ({ type: 'NODE_STATUS', seq, executionId: 'run-1', at: 1000 + seq, nodeId, status: s, counts: { received, emitted: received }, ...extra });

/** Commits per node, counted by a React Profiler around each canvas node (the real StudioNode inside). */
const commits: Record<string, number> = {};
const count: ProfilerOnRenderCallback = (id) => void (commits[id] = (commits[id] ?? 0) + 1);
const ProfiledNode = memo(
  function ProfiledNode(props: NodeProps<StudioNode>) {
    return (
      <Profiler id={props.id} onRender={count}>
        <StudioNodeComponent {...props} />
      </Profiler>
    );
  },
  (a, b) => a.id === b.id && a.data === b.data && a.selected === b.selected,
);
const NODE_TYPES = { studio: ProfiledNode };

beforeEach(() => {
  resetStores();
  for (const id of IDS) delete commits[id];
});
afterEach(cleanup);

function snapshot(): Record<string, number> {
  return Object.fromEntries(IDS.map((id) => [id, commits[id] ?? 0]));
}

describe('OBS-01 live updates re-render only the nodes they change (React Profiler)', () => {
  it('a batch that changes b and e commits b and e once each, and no other node; a batch that changes nothing commits none', () => {
    let appCommits = 0;
    render(
      <Profiler id="canvas" onRender={() => void appCommits++}>
        <ReactFlowProvider>
          <div style={{ width: 1200, height: 400 }}>
            <ReactFlow nodes={NODES} edges={[]} nodeTypes={NODE_TYPES} />
          </div>
        </ReactFlowProvider>
      </Profiler>,
    );
    expect(screen.getByTestId('node-a')).toBeTruthy();
    act(() => useLive.getState().show('run-1'));
    act(() => applyStudioEvents(IDS.map((id, i) => status(i, id, 'PENDING', 0))));
    const before = snapshot();
    const appBefore = appCommits;

    // One coalesced batch: several events for b (counts grow), one for e (status changes).
    act(() => applyStudioEvents([status(10, 'b', 'RUNNING', 1), status(11, 'b', 'RUNNING', 5), status(12, 'e', 'RUNNING', 0)]));
    const after = snapshot();
    expect(after['b']).toBe(before['b']! + 1);
    expect(after['e']).toBe(before['e']! + 1);
    for (const id of ['a', 'c', 'd', 'f']) expect(after[id], id).toBe(before[id]);
    expect(appCommits - appBefore).toBe(1); // one React commit for the whole batch
    expect(screen.getByTestId('node-counts-b').textContent).toBe('5 in · 5 out');

    // Nothing new (a stale count, a step back in status): no node renders.
    act(() => applyStudioEvents([status(13, 'b', 'PENDING', 2)]));
    expect(snapshot()).toEqual(after);

    // A held message is a change of that node only (it pulses).
    act(() => applyStudioEvents([status(14, 'c', 'RUNNING', 1, { held: 'm-1' })]));
    expect(snapshot()['c']).toBe(after['c']! + 1);
    expect(snapshot()['d']).toBe(after['d']);
    expect(screen.getByTestId('node-c').getAttribute('data-held')).toBe('true');
  });
});
