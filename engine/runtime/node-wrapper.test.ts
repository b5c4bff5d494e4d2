import { describe, expect, it } from 'vitest';
import { chain, gate, harness, processor, recorder } from '../test-support/engine-harness';

const items = (n: number) => ({ items: Array.from({ length: n }, (_, i) => ({ i, order: { id: String(40 + i) } })) });
const splitThen = (middle: Array<{ nodeId: string; type: string; config?: Record<string, unknown> }>) =>
  chain('valve', [{ nodeId: 's', type: 'SPLIT', config: { path: 'payload.items' } }, ...middle]);

describe('ENG-02 node wrapper: the valve hook (pause, step, breakpoint, skip)', () => {
  it('holds at a breakpoint on payload.some.path, shows the held message, replaces it and steps one', async () => {
    const rec = recorder();
    const h = harness([rec.plugin]);
    const id = await h.run(splitThen([{ nodeId: 'x', type: 'TRANSFORM' }]), items(5), {
      breakpoints: [{ nodeId: 'x', path: 'payload.order.id', equals: '42' }],
    });
    const x = h.engine.liveRun(id)!.stage('x');
    await h.settle();
    expect(x.valve.state().held?.payload).toEqual({ i: 2, order: { id: '42' } });
    expect(rec.seen).toEqual([
      { i: 0, order: { id: '40' } },
      { i: 1, order: { id: '41' } },
    ]);
    x.valve.replaceHeldPayload({ i: 2, edited: true });
    x.valve.step(1);
    await h.settle();
    expect(rec.seen.at(-1)).toEqual({ i: 2, edited: true });
    expect(rec.seen).toHaveLength(3); // step 1 let exactly one through, then paused
    expect(x.valve.state().paused).toBe(true);
    x.valve.setBreakpoint(null);
    x.valve.resume();
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    expect(rec.seen).toHaveLength(5);
  });

  it('pause stops taking new messages; step n lets exactly n through', async () => {
    const rec = recorder();
    const h = harness([rec.plugin]);
    const id = await h.run(splitThen([{ nodeId: 'x', type: 'TRANSFORM' }]), items(6), { paused: ['x'] });
    const x = h.engine.liveRun(id)!.stage('x');
    await h.settle();
    expect(rec.seen).toHaveLength(0);
    x.valve.step(2);
    await h.settle();
    expect(rec.seen).toHaveLength(2);
    x.valve.step(3);
    await h.settle();
    expect(rec.seen).toHaveLength(5);
    x.valve.resume();
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    expect(rec.seen).toHaveLength(6);
  });

  it('skip passes messages through without calling the plugin; unskip calls it again', async () => {
    const calls: number[] = [];
    const plugin = processor('COUNTING', (m) => {
      calls.push((m.payload as { i: number }).i);
      return [{ payload: { ...(m.payload as object), seen: true } }];
    });
    const rec = recorder();
    const h = harness([plugin, rec.plugin]);
    const id = await h.run(splitThen([{ nodeId: 'x', type: 'COUNTING' }]), items(4), { skipped: ['x'], paused: ['x'] });
    const x = h.engine.liveRun(id)!.stage('x');
    await h.settle();
    x.valve.step(2);
    await h.settle();
    x.valve.setSkipped(false);
    x.valve.resume();
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    expect(calls).toEqual([2, 3]);
    expect(rec.seen.map((p) => (p as { seen?: boolean }).seen ?? false)).toEqual([false, false, true, true]);
  });

  it('gives the plugin its execution id, node id, attempt, log sink and signal', async () => {
    const seen: Array<Record<string, unknown>> = [];
    const plugin = processor('CTX', (m, ctx) => {
      seen.push({ executionId: ctx.executionId, nodeId: ctx.nodeId, attempt: ctx.attempt, aborted: ctx.signal.aborted });
      ctx.log.info('hello from the plugin');
      return [{ payload: m.payload }];
    });
    const h = harness([plugin, recorder().plugin]);
    const id = await h.run(chain('ctx', [{ nodeId: 'c', type: 'CTX' }]));
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    expect(seen).toEqual([{ executionId: id, nodeId: 'c', attempt: 1, aborted: false }]);
    expect(h.events.some((e) => e.type === 'LOG' && e.nodeId === 'c' && e.text === 'hello from the plugin')).toBe(true);
  });

  it('freezes messages in development and tests, so a plugin that mutates its input fails', async () => {
    const mutating = processor('MUTATE', (m) => {
      (m.payload as { x: number }).x = 2;
      return [{ payload: m.payload }];
    });
    const h = harness([mutating, recorder().plugin]);
    const id = await h.run(chain('mut', [{ nodeId: 'm', type: 'MUTATE' }]), { x: 1 });
    expect(await h.engine.waitForRun(id)).toBe('FAILURE');
    expect(h.engine.getRun(id).nodes.find((n) => n.nodeId === 'm')?.error?.name).toBe('TypeError');
  });

  it('a run-level pause holds every node and resume lets the run finish', async () => {
    const hold = gate();
    const slow = processor('GATED', async (m) => {
      await hold.opened;
      return [{ payload: m.payload }];
    });
    const rec = recorder();
    const h = harness([slow, rec.plugin]);
    const id = await h.run(
      splitThen([
        { nodeId: 'g', type: 'GATED' },
        { nodeId: 'y', type: 'TRANSFORM' },
      ]),
      items(3),
    );
    await h.settle();
    h.engine.liveRun(id)!.pause();
    hold.open(); // the message inside the plugin finishes…
    await h.settle();
    expect(rec.seen).toHaveLength(0); // …but y takes nothing new while paused
    h.engine.liveRun(id)!.resume();
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    expect(rec.seen).toHaveLength(3);
  });
});
