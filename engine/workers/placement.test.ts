import { describe, expect, it } from 'vitest';
import type { PluginContext } from '../plugins/contract';
import type { Message } from '../runtime/message';
import { chain, gate, harness, processor, recorder, type Harness } from '../test-support/engine-harness';
import { connectInProcess } from '../test-support/worker-pair';

/** A node placed on `pool`, with an optional failure policy. */
function placed(type: string, pool: string, policy: Record<string, unknown> = {}) {
  return { nodeId: 'remote', type, config: { engine: { placement: { pool }, ...policy } } };
}

/** The same type on the host and on a worker, each saying where it ran. */
function tagged(where: string) {
  return processor('TAG', (m) => [{ payload: { ...(m.payload as object), ranOn: where } }]);
}

/** A worker-side plugin that holds each message until the test opens its gate (keyed by `payload.n`). */
function holding() {
  const gates = new Map<number, ReturnType<typeof gate>>();
  const started: number[] = [];
  const plugin = processor('HOLD', async (m: Message, ctx: PluginContext) => {
    const n = (m.payload as { n: number }).n;
    started.push(n);
    const g = gates.get(n) ?? gate();
    gates.set(n, g);
    await Promise.race([g.opened, new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason), { once: true }))]);
    return [{ payload: m.payload }];
  });
  const release = (n: number) => {
    const g = gates.get(n) ?? gate();
    gates.set(n, g);
    g.open();
  };
  return { plugin, started, release };
}

async function until(h: Harness, condition: () => boolean, stepMs = 0): Promise<void> {
  for (let i = 0; i < 200 && !condition(); i++) {
    await h.settle();
    if (stepMs) await h.clock.advanceAsync(stepMs);
  }
  expect(condition()).toBe(true);
}

describe("SCL-01 placement: attempts run on the pool's workers", () => {
  it('runs a placed node on a worker of its pool, not on the host, and records which worker ran it', async () => {
    const rec = recorder();
    const h = harness([tagged('host'), rec.plugin]);
    const w = connectInProcess(h.engine, { name: 'w1', pool: 'gpu', allow: ['TAG'], plugins: [tagged('worker')] });
    await w.welcomed;
    const id = await h.run(chain('placed', [placed('TAG', 'gpu')]), { n: 1 });
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    expect(rec.seen).toEqual([{ n: 1, ranOn: 'worker' }]);
    expect(h.engine.remoteAttempts(id)).toMatchObject([{ nodeId: 'remote', attempt: 1, pool: 'gpu', worker: 'w1', outcome: 'SUCCESS' }]);
    expect(h.engine.workersView()).toMatchObject({
      pools: [{ pool: 'gpu', workers: 1, slots: 1, used: 0 }],
      workers: [{ name: 'w1', attempts: { SUCCESS: 1 } }],
    });
  });

  it('gives each attempt to the worker with the most free slots (a tie to the one idle longest), and queues when all are busy', async () => {
    const onA = holding();
    const onB = holding();
    const rec = recorder();
    const h = harness([onA.plugin, rec.plugin]);
    const a = connectInProcess(h.engine, { name: 'a', pool: 'p', allow: ['HOLD'], slots: 1, plugins: [onA.plugin] });
    const b = connectInProcess(h.engine, { name: 'b', pool: 'p', allow: ['HOLD'], slots: 3, plugins: [onB.plugin] });
    await Promise.all([a.welcomed, b.welcomed]);
    await h.engine.saveWorkflow('test', chain('most-free', [placed('HOLD', 'p')]));
    const start = async (n: number) => (await h.engine.startRun({ session: 'test', workflowId: 'most-free', payload: { n } })).executionId;
    const ids: string[] = [];
    for (let n = 1; n <= 4; n++) {
      ids.push(await start(n));
      await until(h, () => onA.started.length + onB.started.length === n);
    }
    // b (3 free) → b (2 free vs 1) → tie 1:1 goes to a, never given one → b's last slot.
    expect(ids.map((id) => h.engine.remoteAttempts(id)[0]?.worker)).toEqual(['b', 'b', 'a', 'b']);
    const fifth = await start(5);
    await h.settle();
    expect(h.engine.workersView().pools[0]).toMatchObject({ slots: 4, used: 4, waiting: 1 });
    onA.release(3);
    await until(h, () => onA.started.includes(5));
    expect(h.engine.remoteAttempts(fifth)[0]?.worker).toBe('a');
    for (const n of [1, 2, 4]) onB.release(n);
    onA.release(5);
    for (const id of [...ids, fifth]) expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
  });

  it('fails an attempt at once, retryably, when no connected worker of the pool allows the type', async () => {
    const h = harness([tagged('host'), recorder().plugin]);
    const w = connectInProcess(h.engine, { name: 'w1', pool: 'gpu', allow: ['TRANSFORM'] });
    await w.welcomed;
    const id = await h.run(chain('refused', [placed('TAG', 'gpu', { retry: { maxAttempts: 2, backoffMs: 1000 } })]), { n: 1 });
    await until(h, () => h.engine.remoteAttempts(id).length === 2, 500);
    expect(await h.engine.waitForRun(id)).toBe('FAILURE');
    const node = h.engine.getRun(id).nodes.find((n) => n.nodeId === 'remote')!;
    expect(node.counts.retried).toBe(1);
    expect(node.error).toEqual({
      name: 'WorkerUnavailableError',
      code: 'NO_WORKER',
      message: 'none of the 1 connected worker(s) of pool "gpu" allows TAG (or all are draining)',
      attempt: 2,
      maxAttempts: 2,
      input: { n: 1 },
    });
    expect(h.engine.remoteAttempts(id).map((r) => [r.worker, r.outcome])).toEqual([
      [null, 'UNAVAILABLE'],
      [null, 'UNAVAILABLE'],
    ]);
  });

  it('with no worker connected the attempt fails retryably, so a retry after a worker joins succeeds', async () => {
    const rec = recorder();
    const h = harness([tagged('host'), rec.plugin]);
    const id = await h.run(chain('late', [placed('TAG', 'gpu', { retry: { maxAttempts: 3, backoffMs: 1000 } })]), { n: 7 });
    await until(h, () => h.engine.remoteAttempts(id).length === 1);
    expect(h.engine.remoteAttempts(id)[0]).toMatchObject({
      outcome: 'UNAVAILABLE',
      error: { code: 'NO_WORKER', message: 'no worker of pool "gpu" is connected' },
    });
    const w = connectInProcess(h.engine, { name: 'late', pool: 'gpu', allow: ['TAG'], plugins: [tagged('worker')] });
    await w.welcomed;
    await until(h, () => rec.seen.length === 1, 500);
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    expect(rec.seen).toEqual([{ n: 7, ranOn: 'worker' }]);
    expect(h.engine.remoteAttempts(id).map((r) => r.outcome)).toEqual(['UNAVAILABLE', 'SUCCESS']);
  });
});

describe('SCL-01 a lost worker fails its attempts, naming it; the retry runs elsewhere', () => {
  /** On `a`: emits a first part, then never finishes. On `b`: emits both parts. */
  function parts(finishes: boolean) {
    const emitted: number[] = [];
    const plugin = processor('PARTS', (_m, ctx) =>
      (async function* () {
        emitted.push(1);
        yield { payload: { part: 1 } };
        if (!finishes) await new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason), { once: true }));
        emitted.push(2);
        yield { payload: { part: 2 } };
      })(),
    );
    return { plugin, emitted };
  }

  it("drops the lost attempt's partial output: the retry on another worker gives the only output, and the run ends SUCCESS", async () => {
    const hanging = parts(false);
    const whole = parts(true);
    const rec = recorder();
    const h = harness([whole.plugin, rec.plugin]);
    const a = connectInProcess(h.engine, { name: 'a', pool: 'p', allow: ['PARTS'], slots: 2, plugins: [hanging.plugin] });
    const b = connectInProcess(h.engine, { name: 'b', pool: 'p', allow: ['PARTS'], slots: 1, plugins: [whole.plugin] });
    await Promise.all([a.welcomed, b.welcomed]);
    const id = await h.run(chain('lost', [{ ...placed('PARTS', 'p', { retry: { maxAttempts: 2, backoffMs: 10 } }), nodeId: 'remote' }]));
    // The first part crossed to the host (the node holds it back until the attempt ends: all or nothing).
    await until(h, () => a.sentByWorker.some((f) => f.includes('"t":"OUTPUT"')));
    await h.settle();
    a.close(1006, 'connection reset');
    await until(h, () => rec.seen.length === 2, 10);
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    expect(rec.seen).toEqual([{ part: 1 }, { part: 2 }]);
    const [first, second] = h.engine.remoteAttempts(id);
    expect(first).toMatchObject({
      worker: 'a',
      outcome: 'LOST',
      error: {
        name: 'WorkerLostError',
        code: 'WORKER_LOST',
        message: 'worker "a" (pool p) was lost during attempt 1 of node "remote": its connection closed (code 1006: connection reset)',
      },
    });
    expect(second).toMatchObject({ worker: 'b', attempt: 2, outcome: 'SUCCESS' });
    expect(h.engine.workersView().workers.map((w) => w.name)).toEqual(['b']);
  });

  it('drops a worker that misses its lease: its attempt fails retryably and lands on a worker that renewed', async () => {
    const rec = recorder();
    const lines: string[] = [];
    const h = harness([tagged('host'), rec.plugin], { workers: { leaseMs: 15_000, log: (_level, text) => lines.push(text) } });
    const a = connectInProcess(h.engine, { name: 'a', pool: 'p', allow: ['TAG'], slots: 2, plugins: [tagged('a')] });
    const b = connectInProcess(h.engine, { name: 'b', pool: 'p', allow: ['TAG'], slots: 1, plugins: [tagged('b')] });
    await Promise.all([a.welcomed, b.welcomed]);
    a.freeze(); // a stopped process: nothing more crosses from it
    const id = await h.run(chain('lease', [placed('TAG', 'p', { retry: { maxAttempts: 2, backoffMs: 10 } })]), { n: 1 });
    await h.settle();
    expect(h.engine.remoteAttempts(id)[0]?.worker).toBe('a');
    await h.clock.advanceAsync(10_000);
    b.session.renew();
    await h.settle();
    await h.clock.advanceAsync(10_000);
    await until(h, () => rec.seen.length === 1, 10);
    expect(rec.seen).toEqual([{ n: 1, ranOn: 'b' }]);
    expect(h.engine.remoteAttempts(id).map((r) => [r.worker, r.outcome])).toEqual([
      ['a', 'LOST'],
      ['b', 'SUCCESS'],
    ]);
    expect(h.engine.remoteAttempts(id)[0]?.error?.message).toMatch(
      /^worker "a" \(pool p\) was lost during attempt 1 of node "remote": it missed its lease \(no renewal for 20000 ms, lease 15000 ms\)$/,
    );
    expect(lines.some((l) => l.startsWith('worker "a" (pool p) dropped: it missed its lease'))).toBe(true);
  });
});

describe('SCL-01 cancel and drain cross end to end', () => {
  it('cancelling the run stops the attempt on the worker and frees its slot', async () => {
    let aborted: unknown = null;
    const sleepy = processor('SLEEPY', async (m, ctx) => {
      try {
        await ctx.sleep(3_600_000);
      } catch (error) {
        aborted = error;
        throw error;
      }
      return [{ payload: m.payload }];
    });
    const h = harness([sleepy, recorder().plugin]);
    const w = connectInProcess(h.engine, { name: 'w', pool: 'p', allow: ['SLEEPY'], plugins: [sleepy], clock: h.clock });
    await w.welcomed;
    const id = await h.run(chain('cancel', [placed('SLEEPY', 'p')]));
    await until(h, () => w.agent.running === 1);
    h.engine.cancelRun(id);
    expect(await h.engine.waitForRun(id)).toBe('CANCELLED');
    await until(h, () => w.agent.running === 0);
    expect(aborted).toMatchObject({ name: 'CancelledError' });
    expect(h.engine.workersView().workers[0]).toMatchObject({ used: 0, attempts: { CANCELLED: 1 } });
    expect(h.engine.remoteAttempts(id)[0]).toMatchObject({ outcome: 'CANCELLED' });
  });

  it('a draining worker finishes what it runs and gets no new attempt: they go to another worker', async () => {
    const onA = holding();
    const rec = recorder();
    const h = harness([onA.plugin, rec.plugin]);
    const a = connectInProcess(h.engine, { name: 'a', pool: 'p', allow: ['HOLD'], slots: 4, plugins: [onA.plugin] });
    const b = connectInProcess(h.engine, { name: 'b', pool: 'p', allow: ['HOLD'], slots: 1, plugins: [onA.plugin] });
    await Promise.all([a.welcomed, b.welcomed]);
    await h.engine.saveWorkflow('test', chain('drain', [placed('HOLD', 'p')]));
    const first = (await h.engine.startRun({ session: 'test', workflowId: 'drain', payload: { n: 1 } })).executionId;
    await until(h, () => onA.started.length === 1);
    const drained = a.agent.drain(30_000);
    a.session.renew();
    await until(h, () => h.engine.workersView().workers.find((w) => w.name === 'a')?.draining === true);
    const second = (await h.engine.startRun({ session: 'test', workflowId: 'drain', payload: { n: 2 } })).executionId;
    await until(h, () => onA.started.length === 2);
    expect([h.engine.remoteAttempts(first)[0]?.worker, h.engine.remoteAttempts(second)[0]?.worker]).toEqual(['a', 'b']);
    onA.release(1);
    onA.release(2);
    expect(await drained).toEqual({ aborted: 0 });
    for (const id of [first, second]) expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
  });
});

describe('SCL-01 DEF-02 placement is checked at validation', () => {
  it('refuses placement on triggers, terminals and types that need the engine, and a pool name that no worker can have', () => {
    const h = harness();
    const node = (nodeId: string, type: string, pool = 'p', config: Record<string, unknown> = {}) => ({
      nodeId,
      type,
      config: { ...config, engine: { placement: { pool } } },
    });
    const { issues } = h.engine.validate({
      workflowId: 'v',
      nodes: [
        node('t', 'API_TRIGGER'),
        node('ok', 'TRANSFORM'),
        node('agg', 'AGGREGATE'),
        node('wait', 'WAIT_FOR_SIGNAL', 'p', { signal: 'go' }),
        node('sub', 'SUB_WORKFLOW', 'p', { workflowId: 'child' }),
        node('bad', 'TRANSFORM', 'no spaces'),
        node('out', 'RESULT_TERMINAL'),
      ],
      edges: [
        { source: 't', target: 'ok' },
        { source: 'ok', target: 'agg' },
        { source: 'agg', target: 'wait' },
        { source: 'wait', target: 'sub' },
        { source: 'sub', target: 'bad' },
        { source: 'bad', target: 'out' },
      ],
    });
    const placement = issues.filter((i) => i.path?.endsWith('engine.placement'));
    expect(placement.map((i) => [i.nodeId, i.code, i.message])).toEqual([
      ['t', 'DEF-02/policy', 'node "t" (API_TRIGGER) engine.placement: only processors run on workers; a trigger runs on the host'],
      [
        'agg',
        'DEF-02/policy',
        'node "agg" (AGGREGATE) engine.placement: AGGREGATE keeps state across messages, so it needs the engine and cannot run on a worker',
      ],
      [
        'wait',
        'DEF-02/policy',
        'node "wait" (WAIT_FOR_SIGNAL) engine.placement: WAIT_FOR_SIGNAL waits for signals, so it needs the engine and cannot run on a worker',
      ],
      [
        'sub',
        'DEF-02/policy',
        'node "sub" (SUB_WORKFLOW) engine.placement: SUB_WORKFLOW runs other workflows, so it needs the engine and cannot run on a worker',
      ],
      [
        'bad',
        'DEF-02/policy',
        'node "bad" (TRANSFORM) engine.placement: pool "no spaces": letters, digits and . _ : - (at most 128, starting with a letter or digit)',
      ],
      ['out', 'DEF-02/policy', 'node "out" (RESULT_TERMINAL) engine.placement: only processors run on workers; a terminal runs on the host'],
    ]);
  });
});
