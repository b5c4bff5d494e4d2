import { describe, expect, it } from 'vitest';
import { BadInputError } from './errors';
import type { Message } from './message';
import { backoffDelay, FailureBudget, isRetryable, resolvePolicy } from './failure-policy';
import { seededRandom } from './random';
import { chain, harness, processor, recorder } from '../test-support/engine-harness';

function flaky(failures: number, error: () => Error = () => new Error('flaky')) {
  const attempts: number[] = [];
  const plugin = processor('FLAKY', (m) => {
    attempts.push(Number(m.headers['attempt']));
    if (attempts.length <= failures) throw error();
    return [{ payload: m.payload }];
  });
  return { plugin, attempts };
}

describe('ENG-04 failure policy', () => {
  it('retries with an attempt header and exponential backoff in virtual time', async () => {
    const { plugin, attempts } = flaky(2);
    const rec = recorder();
    const h = harness([plugin, rec.plugin]);
    const id = await h.run(
      chain('r', [{ nodeId: 'f', type: 'FLAKY', config: { engine: { retry: { maxAttempts: 3, backoffMs: 1000, maxBackoffMs: 10_000 } } } }]),
      { x: 1 },
    );
    await h.settle();
    expect(attempts).toEqual([1]);
    h.clock.advance(1000); // first backoff is at most backoffMs
    await h.settle();
    expect(attempts).toEqual([1, 2]);
    h.clock.advance(2000); // second at most twice that
    await h.settle();
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    expect(attempts).toEqual([1, 2, 3]);
    expect(rec.seen).toEqual([{ x: 1 }]);
    expect(h.engine.getRun(id).nodes.find((n) => n.nodeId === 'f')?.counts.retried).toBe(2);
    // NODE_STATUS reports the attempt running now while a message is retried (STU-03 shows it), then none.
    const statuses = h.events.flatMap((e) => (e.type === 'NODE_STATUS' && e.nodeId === 'f' ? [e] : []));
    expect(statuses.flatMap((e) => (e.attempt === undefined ? [] : [e.attempt]))).toEqual([2, 3]);
    expect(statuses.at(-1)).toMatchObject({ status: 'SUCCESS' });
    expect(statuses.at(-1)?.attempt).toBeUndefined();
  });

  it('never retries BadInputError', async () => {
    const { plugin, attempts } = flaky(5, () => new BadInputError('bad'));
    const h = harness([plugin, recorder().plugin]);
    const id = await h.run(chain('b', [{ nodeId: 'f', type: 'FLAKY', config: { engine: { retry: { maxAttempts: 5 } } } }]));
    expect(await h.engine.waitForRun(id)).toBe('FAILURE');
    expect(attempts).toEqual([1]);
  });

  it('retries only what retryOn names and never what noRetryOn names (by error name or code)', () => {
    const policy = resolvePolicy({ retry: { maxAttempts: 3, retryOn: ['ECONNRESET', 'TimeoutError'], noRetryOn: ['Fatal'] } });
    const reset = Object.assign(new Error('x'), { code: 'ECONNRESET' });
    const timeout = Object.assign(new Error('t'), { name: 'TimeoutError' });
    const other = new Error('o');
    expect([isRetryable(policy, reset), isRetryable(policy, timeout), isRetryable(policy, other)]).toEqual([true, true, false]);
    const deny = resolvePolicy({ retry: { maxAttempts: 3, noRetryOn: ['Fatal'] } });
    expect(isRetryable(deny, Object.assign(new Error(), { name: 'Fatal' }))).toBe(false);
    expect(isRetryable(deny, new Error())).toBe(true);
  });

  it('caps backoff at maxBackoffMs with jitter that is reproducible from a seed', () => {
    const policy = resolvePolicy({ retry: { maxAttempts: 10, backoffMs: 100, maxBackoffMs: 1000 } });
    const a = [2, 3, 4, 5, 6, 7].map((n) => backoffDelay(policy, n, seededRandom(7)));
    const b = [2, 3, 4, 5, 6, 7].map((n) => backoffDelay(policy, n, seededRandom(7)));
    expect(a).toEqual(b);
    a.forEach((d, i) => {
      const full = Math.min(1000, 100 * 2 ** i);
      expect(d).toBeGreaterThanOrEqual(full / 2);
      expect(d).toBeLessThanOrEqual(full);
    });
  });

  it('CONTINUE drops the failed message and goes on', async () => {
    const fail = processor('ODD', (m) => {
      if ((m.payload as { i: number }).i % 2) throw new Error('odd');
      return [{ payload: m.payload }];
    });
    const rec = recorder();
    const split = { nodeId: 's', type: 'SPLIT', config: { path: 'payload.items' } };
    const h = harness([fail, rec.plugin]);
    const id = await h.run(chain('c', [split, { nodeId: 'f', type: 'ODD', config: { engine: { onError: 'CONTINUE' } } }]), {
      items: [0, 1, 2, 3].map((i) => ({ i })),
    });
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    expect(rec.seen).toEqual([{ i: 0 }, { i: 2 }]);
    expect(h.engine.getRun(id).nodes.find((n) => n.nodeId === 'f')?.counts.failed).toBe(2);
  });

  it('ROUTE sends {error, input} to the error port', async () => {
    const fail = processor('BOOM', () => {
      throw Object.assign(new Error('boom'), { code: 'E_BOOM' });
    });
    const ok = recorder('OK');
    const dead = recorder('DEAD');
    const h = harness([fail, ok.plugin, dead.plugin]);
    const id = await h.run(
      {
        workflowId: 'route',
        nodes: [
          { nodeId: 't', type: 'API_TRIGGER' },
          { nodeId: 'f', type: 'BOOM', config: { engine: { onError: 'ROUTE' } } },
          { nodeId: 'ok', type: 'OK' },
          { nodeId: 'dead', type: 'DEAD' },
        ],
        edges: [
          { source: 't', target: 'f' },
          { source: 'f', target: 'ok' },
          { source: 'f', target: 'dead', sourcePort: 'error' },
        ],
      },
      { order: 7 },
    );
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    expect(ok.seen).toEqual([]);
    expect(dead.seen).toEqual([{ error: { name: 'Error', message: 'boom', code: 'E_BOOM' }, input: { order: 7 } }]);
  });

  it('holds back what a failed attempt emitted (all or nothing)', async () => {
    let calls = 0;
    const partial = processor('PARTIAL', async function* (m: Message) {
      calls++;
      yield { payload: { part: 1, attempt: m.headers['attempt'] } };
      if (calls === 1) throw new Error('half way');
      yield { payload: { part: 2, attempt: m.headers['attempt'] } };
    } as never);
    const rec = recorder();
    const h = harness([partial, rec.plugin]);
    const id = await h.run(chain('aon', [{ nodeId: 'p', type: 'PARTIAL', config: { engine: { retry: { maxAttempts: 2, backoffMs: 10 } } } }]));
    await h.settle();
    h.clock.advance(10);
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    expect(rec.seen).toEqual([
      { part: 1, attempt: 2 },
      { part: 2, attempt: 2 },
    ]);
  });

  it('a failure budget fails the node even under CONTINUE', async () => {
    const fail = processor('ALWAYS', () => {
      throw new Error('nope');
    });
    const h = harness([fail, recorder().plugin]);
    const id = await h.run(
      chain('budget', [
        { nodeId: 's', type: 'SPLIT', config: { path: 'payload.items' } },
        { nodeId: 'f', type: 'ALWAYS', config: { engine: { onError: 'CONTINUE', failureBudget: { maxFailures: 2, windowMs: 60_000 } } } },
      ]),
      { items: [1, 2, 3, 4] },
    );
    expect(await h.engine.waitForRun(id)).toBe('FAILURE');
    const node = h.engine.getRun(id).nodes.find((n) => n.nodeId === 'f');
    expect(node?.status).toBe('FAILURE');
    expect(node?.error?.name).toBe('FailureBudgetExceeded');
    expect(node?.counts.failed).toBe(3);
  });

  it('counts failures in a sliding window', () => {
    const budget = new FailureBudget({ maxFailures: 1, windowMs: 100 });
    expect(budget.record(0)).toBe(false);
    expect(budget.record(150)).toBe(false); // the first fell out of the window
    expect(budget.record(200)).toBe(true);
  });

  it('elementTimeoutMs fails one attempt, which is retried', async () => {
    let calls = 0;
    const slowOnce = processor('SLOW_ONCE', async (m, ctx) => {
      calls++;
      if (calls === 1) await new Promise<never>((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason)));
      return [{ payload: m.payload }];
    });
    const rec = recorder();
    const h = harness([slowOnce, rec.plugin]);
    const id = await h.run(
      chain('et', [{ nodeId: 'x', type: 'SLOW_ONCE', config: { engine: { elementTimeoutMs: 500, retry: { maxAttempts: 2, backoffMs: 1 } } } }]),
      { v: 1 },
    );
    await h.settle();
    h.clock.advance(500);
    await h.settle();
    h.clock.advance(1);
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    expect(calls).toBe(2);
    expect(rec.seen).toEqual([{ v: 1 }]);
  });
});
