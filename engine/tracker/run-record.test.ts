import { describe, expect, it } from 'vitest';
import type { StudioEvent } from '../../shared/events/events';
import { RunTracker } from './run-tracker';

describe('OBS-01 compact run records give back the events as they were published', () => {
  it('history and catch-up rebuild every field: optional counts, held (text or null), error, buffer, attempt', () => {
    const tracker = new RunTracker({ now: () => 0 });
    const base = { executionId: 'r1', session: 's', workflowId: 'wf', definitionVersion: 'v1' };
    const published: StudioEvent[] = [
      { type: 'EXECUTION_STATUS', seq: 1, at: 10, ...base, status: 'PENDING', nodeIds: ['a', 'b'] },
      { type: 'EXECUTION_STATUS', seq: 2, at: 11, ...base, status: 'RUNNING' },
      { type: 'NODE_STATUS', seq: 3, executionId: 'r1', at: 12, nodeId: 'a', status: 'RUNNING', counts: { received: 1, emitted: 0 } },
      {
        type: 'NODE_STATUS',
        seq: 4,
        executionId: 'r1',
        at: 13,
        nodeId: 'b',
        status: 'RUNNING',
        counts: { received: 2, emitted: 1, failed: 0, retried: 3 },
        held: 'a#1',
        buffer: { used: 2, size: 64 },
        attempt: 2,
      },
      {
        type: 'NODE_STATUS',
        seq: 5,
        executionId: 'r1',
        at: 14,
        nodeId: 'b',
        status: 'RUNNING',
        counts: { received: 2, emitted: 1, dropped: 4 },
        held: null,
        buffer: { used: 0, size: 64 },
      },
      {
        type: 'NODE_STATUS',
        seq: 6,
        executionId: 'r1',
        at: 15,
        nodeId: 'a',
        status: 'FAILURE',
        counts: { received: 1, emitted: 0, failed: 1 },
        error: { name: 'Error', message: 'no', code: 'X' },
      },
      // A step back: ignored for the status (ENG-06), its counts still merged; history keeps it as published.
      { type: 'NODE_STATUS', seq: 7, executionId: 'r1', at: 16, nodeId: 'a', status: 'RUNNING', counts: { received: 9, emitted: 9 } },
      { type: 'EXECUTION_STATUS', seq: 8, at: 17, ...base, status: 'FAILURE', error: { name: 'Error', message: 'node "a" failed: no' } },
    ];
    for (const e of published) tracker.apply(e);

    const withVersion = (e: StudioEvent) => (e.type === 'NODE_STATUS' ? { ...e, definitionVersion: 'v1' } : e);
    expect(tracker.history('r1')).toEqual(published.map(withVersion));
    // The newest run event with every node id, then each node's newest event (its status the node's own), in feed order.
    expect(tracker.catchUp({ executionId: 'r1' })).toEqual([{ ...published[7]!, nodeIds: ['a', 'b'] }, published[4], { ...published[6]!, status: 'FAILURE' }]);
    expect(tracker.get('r1')!.nodes).toEqual([
      { nodeId: 'a', status: 'FAILURE', counts: { received: 9, emitted: 9 }, startedAt: 12, endedAt: 15, error: { name: 'Error', message: 'no', code: 'X' } },
      { nodeId: 'b', status: 'RUNNING', counts: { received: 2, emitted: 1, dropped: 4 }, startedAt: 13 },
    ]);
  });
});
