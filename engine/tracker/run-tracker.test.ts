import { describe, expect, it } from 'vitest';
import type { StudioEvent } from '../../shared/events/events';
import type { Status } from '../../shared/status/status';
import { RunTracker, type RunTrackerOptions } from './run-tracker';

/** Builds numbered events the way the bus does, on a time the test moves. */
function feed(options: RunTrackerOptions = {}) {
  let seq = 0;
  let now = 1_000;
  const tracker = new RunTracker({ now: () => now, ...options });
  const push = (event: Record<string, unknown>) => {
    const e = { seq: ++seq, at: now, ...event } as StudioEvent;
    tracker.apply(e);
    return e;
  };
  return {
    tracker,
    advance: (ms: number) => (now += ms),
    run: (executionId: string, status: Status, extra: Record<string, unknown> = {}) =>
      push({ type: 'EXECUTION_STATUS', executionId, session: 's1', workflowId: 'wf', definitionVersion: 'v-abc', status, ...extra }),
    node: (executionId: string, nodeId: string, status: Status, received = 0) =>
      push({ type: 'NODE_STATUS', executionId, nodeId, status, counts: { received, emitted: received } }),
    result: (executionId: string, nodeId: string, i: number) => push({ type: 'NODE_RESULT', executionId, nodeId, messageId: `m${i}`, payload: { i } }),
    log: (executionId: string, text: string, nodeId?: string) => push({ type: 'LOG', executionId, level: 'info', text, ...(nodeId ? { nodeId } : {}) }),
  };
}

describe('OBS-01 tracker and live progress', () => {
  it('queues every event and applies the queue in one batch; reads apply what waits first', async () => {
    const f = feed();
    f.run('r1', 'PENDING', { nodeIds: ['a', 'b'] });
    for (let i = 0; i < 5000; i++) f.node('r1', 'a', 'RUNNING', i);
    expect(f.tracker.queueDepth).toBe(5001); // nothing dropped, nothing applied yet
    expect(f.tracker.get('r1')!.nodes.find((n) => n.nodeId === 'a')).toMatchObject({ status: 'RUNNING', counts: { received: 4999 } });
    expect(f.tracker.queueDepth).toBe(0);
    f.node('r1', 'b', 'RUNNING', 1);
    expect(f.tracker.queueDepth).toBe(1);
    await Promise.resolve(); // the consumer runs once the publishing turn is over
    expect(f.tracker.queueDepth).toBe(0);
  });

  it('every progress snapshot carries definitionVersion; history keeps the newest 200 per run', () => {
    const f = feed();
    f.run('r1', 'PENDING', { nodeIds: ['a'] });
    f.run('r1', 'RUNNING');
    for (let i = 1; i <= 300; i++) f.node('r1', 'a', 'RUNNING', i);
    const history = f.tracker.history('r1');
    expect(history).toHaveLength(200);
    expect(history.every((s) => s.definitionVersion === 'v-abc')).toBe(true);
    expect(history[0]).toMatchObject({ type: 'NODE_STATUS', counts: { received: 101 } });
    expect(history.at(-1)).toMatchObject({ counts: { received: 300 } });
  });

  it('history stays the newest 200, oldest first, across many more status events', () => {
    const f = feed();
    f.run('r1', 'PENDING', { nodeIds: ['a'] });
    f.run('r1', 'RUNNING');
    for (let i = 1; i <= 1003; i++) {
      f.node('r1', 'a', 'RUNNING', i);
      if (i % 401 === 0) expect(f.tracker.history('r1').at(-1)).toMatchObject({ counts: { received: i } });
    }
    const history = f.tracker.history('r1');
    expect(history).toHaveLength(200);
    expect(history.map((s) => (s.type === 'NODE_STATUS' ? s.counts.received : -1))).toEqual(Array.from({ length: 200 }, (_, k) => 804 + k));
    expect(history.every((s) => s.definitionVersion === 'v-abc')).toBe(true);
  });

  it('keeps history for the newest maxRuns runs, never dropping one still running', () => {
    const f = feed({ maxRuns: 2 });
    f.run('live', 'RUNNING');
    f.run('done1', 'SUCCESS');
    f.run('done2', 'SUCCESS');
    f.run('done3', 'SUCCESS');
    expect(f.tracker.list({ limit: 10 }).map((r) => r.executionId)).toEqual(['done3', 'live']);
  });

  it('a late subscriber filtered to a run gets its current state first, in feed order, filtered by type', () => {
    const f = feed();
    f.run('r1', 'PENDING', { nodeIds: ['a', 'out'] });
    f.run('r1', 'RUNNING');
    f.node('r1', 'a', 'RUNNING', 1);
    f.node('r1', 'a', 'SUCCESS', 2);
    const res = f.result('r1', 'out', 1);
    f.log('r1', 'hello', 'a');
    f.node('r1', 'a', 'RUNNING', 9); // a late RUNNING after the end: the node stays SUCCESS
    f.run('r2', 'PENDING');
    const events = f.tracker.catchUp({ executionId: 'r1' });
    expect(events[0]).toMatchObject({ type: 'EXECUTION_STATUS', status: 'RUNNING', nodeIds: ['a', 'out'], definitionVersion: 'v-abc' });
    expect(events.slice(1).map((e) => e.type)).toEqual(['NODE_RESULT', 'LOG', 'NODE_STATUS']);
    expect(events.find((e) => e.type === 'NODE_STATUS')).toMatchObject({ nodeId: 'a', status: 'SUCCESS', counts: { received: 9 } });
    expect(events.find((e) => e.type === 'NODE_RESULT')!.seq).toBe(res.seq);
    expect(events.every((e) => e.executionId === 'r1')).toBe(true);
    expect(f.tracker.catchUp({ executionId: 'r1', type: ['NODE_RESULT'] }).map((e) => e.type)).toEqual(['NODE_RESULT']);
    expect(f.tracker.catchUp({})).toEqual([]);
    expect(f.tracker.catchUp({ executionId: 'nope' })).toEqual([]);
  });

  it('a run restored from the durable log catches up from its summary and nodes', () => {
    const f = feed();
    f.tracker.restore([
      {
        executionId: 'old',
        session: 's1',
        workflowId: 'wf',
        definitionVersion: 'v-1',
        status: 'ABORTED',
        createdAt: 5,
        endedAt: 9,
        nodes: [{ nodeId: 'a', status: 'SUCCESS', counts: { received: 1, emitted: 1 }, endedAt: 7 }],
        results: [{ nodeId: 'a', messageId: 'm', payload: 1 }],
        resultsTruncated: true,
      },
    ]);
    const events = f.tracker.catchUp({ executionId: 'old' });
    expect(events[0]).toMatchObject({ type: 'EXECUTION_STATUS', status: 'ABORTED', definitionVersion: 'v-1', nodeIds: ['a'], at: 9, truncated: true });
    expect(events.slice(1)).toEqual([
      { type: 'NODE_STATUS', seq: 0, executionId: 'old', at: 7, nodeId: 'a', status: 'SUCCESS', counts: { received: 1, emitted: 1 } },
      { type: 'NODE_RESULT', seq: 0, executionId: 'old', at: 9, nodeId: 'a', messageId: 'm', payload: 1 },
    ]);
  });

  it('cleans a finished run from live state after cleanup-ttl; it stays in history', () => {
    const f = feed({ cleanupTtlMs: 60_000 });
    f.run('r1', 'RUNNING');
    f.log('r1', 'line');
    f.run('r1', 'SUCCESS');
    f.run('r2', 'RUNNING');
    f.advance(59_999);
    expect(f.tracker.isLive('r1')).toBe(true);
    expect(f.tracker.logs('r1')).toHaveLength(1);
    f.advance(1);
    expect(f.tracker.isLive('r1')).toBe(false);
    expect(f.tracker.logs('r1')).toEqual([]);
    expect(f.tracker.get('r1')!.status).toBe('SUCCESS');
    expect(f.tracker.isLive('r2')).toBe(true); // still running: never cleaned
    f.advance(3_600_000);
    expect(f.tracker.isLive('r2')).toBe(true);
  });

  it('max-sessions evicts the least recently active session without a running run', () => {
    const f = feed({ maxSessions: 2 });
    const start = (id: string, session: string, status: Status) => f.run(id, status, { session });
    start('a1', 'alpha', 'RUNNING'); // alpha keeps a running run
    start('b1', 'beta', 'SUCCESS');
    start('c1', 'gamma', 'SUCCESS'); // three sessions: beta is the oldest idle one
    expect(f.tracker.liveSessions()).toEqual(['alpha', 'gamma']);
    expect(f.tracker.isLive('b1')).toBe(false);
    expect(f.tracker.get('b1')!.status).toBe('SUCCESS'); // history keeps it
    expect(f.tracker.isLive('a1')).toBe(true);
  });

  it('max-sessions is off by default', () => {
    const f = feed();
    for (let i = 0; i < 50; i++) f.run(`r${i}`, 'SUCCESS', { session: `s${i}` });
    expect(f.tracker.liveSessions()).toHaveLength(50);
  });

  it('events after close are counted as dropped state events, never applied', () => {
    const f = feed();
    f.run('r1', 'RUNNING');
    f.tracker.close();
    f.run('r1', 'SUCCESS');
    expect(f.tracker.droppedState).toBe(1);
    expect(f.tracker.status('r1')).toBe('RUNNING');
  });

  it('an observer that throws is reported and the batch goes on', () => {
    const errors: unknown[] = [];
    const seen: string[] = [];
    const f = feed({
      onError: (e) => errors.push(e),
      observers: [
        {
          runChanged: () => {
            throw new Error('boom');
          },
        },
        { runChanged: (run) => void seen.push(run.status) },
      ],
    });
    f.run('r1', 'RUNNING');
    f.run('r1', 'SUCCESS');
    expect(f.tracker.status('r1')).toBe('SUCCESS');
    expect(seen).toEqual(['RUNNING', 'SUCCESS']);
    expect(errors).toHaveLength(2);
  });
});

describe('OBS-02 live logs', () => {
  it('keeps the newest 10,000 lines per live run and counts the ones dropped', () => {
    const f = feed();
    f.run('r1', 'RUNNING');
    for (let i = 0; i < 10_005; i++) {
      f.log('r1', `line ${i}`);
      if (i % 5000 === 4999) f.tracker.drain(); // applied as they come: no line waits long
    }
    const logs = f.tracker.logs('r1');
    expect(logs).toHaveLength(10_000);
    expect(logs[0]!.text).toBe('line 5');
    expect(f.tracker.droppedLogs).toBe(5);
  });

  it('log lines waiting beyond 10,000 are dropped and counted; state events never are', () => {
    const f = feed({ maxLogLines: 100 });
    f.run('r1', 'RUNNING');
    for (let i = 0; i < 150; i++) f.log('r1', `line ${i}`);
    f.run('r1', 'SUCCESS');
    expect(f.tracker.droppedLogs).toBe(50);
    expect(f.tracker.queueDepth).toBe(102);
    expect(f.tracker.status('r1')).toBe('SUCCESS');
    expect(f.tracker.logs('r1').at(-1)!.text).toBe('line 99');
  });
});

describe('OBS-03 results', () => {
  it('keeps the newest results; the replayed end event says truncated when the replay dropped any', () => {
    const f = feed({ maxResultsPerRun: 3 });
    f.run('r1', 'PENDING', { nodeIds: ['out'] });
    f.run('r1', 'RUNNING');
    for (let i = 0; i < 5; i++) f.result('r1', 'out', i);
    const running = f.tracker.catchUp({ executionId: 'r1' });
    expect(running[0]).not.toHaveProperty('truncated'); // not ended yet
    f.run('r1', 'SUCCESS');
    const detail = f.tracker.get('r1')!;
    expect(detail.results.map((r) => r.messageId)).toEqual(['m2', 'm3', 'm4']);
    expect(detail.resultsTruncated).toBe(true);
    const replay = f.tracker.catchUp({ executionId: 'r1' });
    expect(replay[0]).toMatchObject({ type: 'EXECUTION_STATUS', status: 'SUCCESS', truncated: true });
    expect(replay.filter((e) => e.type === 'NODE_RESULT')).toHaveLength(3);
  });

  it('a complete replay has no truncated flag', () => {
    const f = feed();
    f.run('r1', 'RUNNING');
    f.result('r1', 'out', 1);
    f.run('r1', 'SUCCESS');
    expect(f.tracker.catchUp({ executionId: 'r1' })[0]).not.toHaveProperty('truncated');
  });
});
