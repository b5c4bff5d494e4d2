import { describe, expect, it } from 'vitest';
import { chain, harness, processor, recorder } from '../test-support/engine-harness';
import { ManualClock } from './clock';
import { NodeTimers } from './node-timers';

/** A processor that never finishes unless its signal fires; calls heartbeat every `beatMs` if asked. */
function hang(type = 'HANG', extra = {}) {
  return processor(type, (_m, ctx) => new Promise<never>((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason))), extra);
}

describe('ENG-05 clocks and timeouts', () => {
  it('times a silent node out after its idle timeout (timeoutSeconds)', async () => {
    const h = harness([hang(), recorder().plugin]);
    const id = await h.run(chain('idle', [{ nodeId: 'h', type: 'HANG', timeoutSeconds: 5 }]));
    await h.settle();
    h.clock.advance(4_999);
    await h.settle();
    expect(h.statuses(id)['h']).toBe('RUNNING');
    h.clock.advance(1);
    expect(await h.engine.waitForRun(id)).toBe('FAILURE');
    expect(h.statuses(id)).toMatchObject({ h: 'TIMED_OUT', out: 'UPSTREAM_FAILED' });
    expect(h.engine.getRun(id).nodes.find((n) => n.nodeId === 'h')?.error?.code).toBe('IDLE_TIMEOUT');
  });

  it('uses the plugin default when the node sets no timeout (30 s unless the plugin says)', async () => {
    const h = harness([hang(), hang('HANG_LONG', { defaultTimeoutMs: () => 90_000 }), recorder().plugin]);
    const a = await h.run(chain('d1', [{ nodeId: 'h', type: 'HANG' }]));
    const b = await h.run(chain('d2', [{ nodeId: 'h', type: 'HANG_LONG' }]));
    await h.settle();
    h.clock.advance(30_000);
    await h.settle();
    expect(h.statuses(a)['h']).toBe('TIMED_OUT');
    expect(h.statuses(b)['h']).toBe('RUNNING');
    h.clock.advance(60_000);
    await h.settle();
    expect(h.statuses(b)['h']).toBe('TIMED_OUT');
  });

  it('heartbeat() keeps long silent work alive', async () => {
    let beats = 0;
    const working = processor('WORK', async (m, ctx) => {
      for (let i = 0; i < 10; i++) {
        await ctx.sleep(4_000);
        ctx.heartbeat();
        beats++;
      }
      return [{ payload: m.payload }];
    });
    const h = harness([working, recorder().plugin]);
    const id = await h.run(chain('hb', [{ nodeId: 'w', type: 'WORK', timeoutSeconds: 5 }]));
    for (let i = 0; i < 10; i++) {
      await h.settle();
      h.clock.advance(4_000);
    }
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    expect(beats).toBe(10);
  });

  it('a pause freezes every clock: a paused node never times out', async () => {
    const h = harness([hang(), recorder().plugin]);
    const id = await h.run(chain('pause', [{ nodeId: 'h', type: 'HANG', timeoutSeconds: 5 }]));
    await h.settle();
    h.clock.advance(3_000);
    h.engine.liveRun(id)!.pause();
    h.clock.advance(60_000);
    await h.settle();
    expect(h.statuses(id)['h']).toBe('RUNNING');
    h.engine.liveRun(id)!.resume();
    h.clock.advance(1_999);
    await h.settle();
    expect(h.statuses(id)['h']).toBe('RUNNING');
    h.clock.advance(1);
    expect(await h.engine.waitForRun(id)).toBe('FAILURE');
    expect(h.statuses(id)['h']).toBe('TIMED_OUT');
  });

  it('deadlineMs bounds the whole node, heartbeats or not', async () => {
    const busy = processor('BUSY', async (m, ctx) => {
      for (;;) {
        await ctx.sleep(1_000);
        ctx.heartbeat();
      }
    });
    const h = harness([busy, recorder().plugin]);
    const id = await h.run(chain('dl', [{ nodeId: 'b', type: 'BUSY', config: { engine: { deadlineMs: 10_000 } } }]));
    for (let i = 0; i < 10; i++) {
      await h.settle();
      h.clock.advance(1_000);
    }
    expect(await h.engine.waitForRun(id)).toBe('FAILURE');
    expect(h.engine.getRun(id).nodes.find((n) => n.nodeId === 'b')?.error?.code).toBe('DEADLINE');
  });

  it("a terminal's idle timeout also covers its work after the last input", async () => {
    const slowSink = hang('SLOW_SINK');
    const terminal = { ...(slowSink as object), kind: 'terminal', outputs: [] } as unknown as typeof slowSink;
    const h = harness([terminal]);
    const id = await h.run(chain('term', [], 'SLOW_SINK'));
    await h.settle();
    h.clock.advance(30_000);
    expect(await h.engine.waitForRun(id)).toBe('FAILURE');
    expect(h.statuses(id)['out']).toBe('TIMED_OUT');
  });

  it('ends the run TIMED_OUT at its deadline (engine default 3600 s)', async () => {
    const h = harness([hang('HANG', { defaultTimeoutMs: () => 10 * 3_600_000 }), recorder().plugin]);
    const id = await h.run(chain('runDeadline', [{ nodeId: 'h', type: 'HANG' }]));
    await h.settle();
    h.clock.advance(3_599_999);
    await h.settle();
    expect(h.engine.getRun(id).status).toBe('RUNNING');
    h.clock.advance(1);
    expect(await h.engine.waitForRun(id)).toBe('TIMED_OUT');
    expect(h.engine.getRun(id).error?.code).toBe('RUN_DEADLINE');
  });

  it('a timeout given as an expression starts at the default and is re-timed at the first message', async () => {
    const h = harness([hang(), recorder().plugin]);
    const id = await h.run(chain('expr', [{ nodeId: 'h', type: 'HANG', timeoutSeconds: '${payload.secs:int}' }]), { secs: 90 });
    await h.clock.advanceAsync(30_000); // the default (30 s) no longer applies
    expect(h.statuses(id)['h']).toBe('RUNNING');
    await h.clock.advanceAsync(60_000);
    expect(await h.engine.waitForRun(id)).toBe('FAILURE');
    expect(h.statuses(id)['h']).toBe('TIMED_OUT');
    const bad = await h.run(chain('expr-bad', [{ nodeId: 'h', type: 'HANG', timeoutSeconds: '${payload.secs:int}' }]), { secs: 'soon' });
    expect(await h.engine.waitForRun(bad)).toBe('FAILURE');
    expect(h.engine.getRun(bad).nodes.find((n) => n.nodeId === 'h')?.error?.name).toBe('BadInputError');
    expect(h.engine.validate(chain('expr-refused', [{ nodeId: 'h', type: 'HANG', timeoutSeconds: 'soon' }])).issues[0]).toMatchObject({
      code: 'DEF-02/schema',
      path: 'nodes.1.timeoutSeconds',
    });
  });

  it('pausable timers keep their remaining time across a freeze', () => {
    const clock = new ManualClock(0);
    const timers = new NodeTimers(clock);
    let fired = 0;
    timers.set(() => fired++, 100);
    clock.advance(60);
    timers.freeze();
    clock.advance(1_000);
    expect(fired).toBe(0);
    timers.thaw();
    clock.advance(39);
    expect(fired).toBe(0);
    clock.advance(1);
    expect(fired).toBe(1);
  });
});
