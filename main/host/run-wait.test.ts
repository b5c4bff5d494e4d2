import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../engine/index';
import type { RunWaitResult } from '../../shared/api/runs.schema';
import { closeHosts, failure, openHost } from './host-test-support';

afterEach(closeHosts);

/** API_TRIGGER → WAIT_FOR_SIGNAL → CONSOLE_TERMINAL: the run stays RUNNING until it is approved. */
const GATED = {
  workflowId: 'gated',
  nodes: [
    { nodeId: 't', type: 'API_TRIGGER' },
    { nodeId: 'gate', type: 'WAIT_FOR_SIGNAL', config: { signal: 'ok' } },
    { nodeId: 'o', type: 'CONSOLE_TERMINAL' },
  ],
  edges: [
    { source: 't', target: 'gate' },
    { source: 'gate', target: 'o' },
  ],
};

async function gatedRun() {
  const clock = new ManualClock(0);
  const { host, api } = openHost({ engine: { clock, scheduler: { limits: { shutdownTimeoutMs: 0 } } } });
  await api['workflows.save']({ definition: GATED });
  const { executionId } = await api['runs.start']({ workflowId: 'gated', payload: { order: 1 } });
  // The message reaches the gate in a few turns of the event loop; no engine time passes.
  for (let i = 0; i < 50 && host.engine.control.approvals({}).length === 0; i++) await new Promise<void>((r) => setImmediate(r));
  expect(host.engine.control.approvals({}).map((a) => a.executionId)).toEqual([executionId]);
  return { clock, api, executionId };
}

/** Tracks a pending promise, so a test can say it has not settled yet. */
function track<T>(promise: Promise<T>): { settled: () => boolean; value: Promise<T> } {
  let done = false;
  void promise.then(
    () => (done = true),
    () => (done = true),
  );
  return { settled: () => done, value: promise };
}

const turns = async (): Promise<void> => {
  for (let i = 0; i < 10; i++) await new Promise<void>((r) => setImmediate(r));
};

describe('EXT-04 runs.wait (the bounded wait behind the MCP tool)', () => {
  it('returns the run with timedOut once timeoutSeconds pass on the engine clock, not before', async () => {
    const { clock, api, executionId } = await gatedRun();
    const wait = track(api['runs.wait']({ executionId, timeoutSeconds: 5 }));
    await turns(); // the wait arms its timer once it has read the run
    clock.advance(4_999);
    await turns();
    expect(wait.settled()).toBe(false);
    clock.advance(1);
    const result: RunWaitResult = await wait.value;
    expect(result).toMatchObject({ executionId, status: 'RUNNING', timedOut: true });
  });

  it('returns as soon as the run ends, with its final status and results', async () => {
    const { api, executionId } = await gatedRun();
    const wait = track(api['runs.wait']({ executionId, timeoutSeconds: 300 }));
    await turns();
    expect(wait.settled()).toBe(false);
    await api['signals.send']({ executionId, nodeId: 'gate', decision: 'APPROVE' });
    const result = await wait.value;
    expect(result).toMatchObject({ executionId, status: 'SUCCESS', timedOut: false });
    expect(result.results).toEqual([expect.objectContaining({ nodeId: 'o', payload: { order: 1 } })]);
    // An ended run is answered at once, and timeoutSeconds 0 reads a run without waiting.
    expect(await api['runs.wait']({ executionId })).toMatchObject({ status: 'SUCCESS', timedOut: false });
  });

  it('answers timeoutSeconds 0 at once for a running run, refuses an unknown run and a wait beyond 300 s naming the field', async () => {
    const { api, executionId } = await gatedRun();
    expect(await api['runs.wait']({ executionId, timeoutSeconds: 0 })).toMatchObject({ status: 'RUNNING', timedOut: true });
    expect(await failure(api['runs.wait']({ executionId: 'nope' }))).toMatchObject({ code: 'NOT_FOUND', path: 'executionId' });
    expect(await failure(api['runs.wait']({ executionId, timeoutSeconds: 301 }))).toMatchObject({ code: 'BAD_INPUT', path: 'timeoutSeconds' });
    expect(await failure(api['runs.wait']({ executionId, timeoutSeconds: -1 }))).toMatchObject({ code: 'BAD_INPUT', path: 'timeoutSeconds' });
  });
});
