import { describe, expect, it } from 'vitest';
import { chain, gate, harness, processor, recorder } from '../test-support/engine-harness';

describe('CTL-08 plugin-level control bus', () => {
  it('is keyed by workflow and node: heartbeat reaches the node in every live run and keeps its idle clock alive', async () => {
    const release = gate();
    const hold = processor('HOLD', async (m) => (await release.opened, [{ payload: m.payload }]));
    const h = harness([hold, recorder().plugin]);
    const a = await h.run(chain('bus', [{ nodeId: 'x', type: 'HOLD' }]));
    const b = await h.run(chain('bus', [{ nodeId: 'x', type: 'HOLD' }]));
    await h.settle();
    const key = { session: 'test', workflowId: 'bus', nodeId: 'x' };
    await h.clock.advanceAsync(20_000);
    expect(h.engine.control.pluginControl(key, { kind: 'heartbeat' })).toMatchObject({ runs: 2, delivered: 2 });
    await h.clock.advanceAsync(20_000); // 40 s since the node started, 20 s since the heartbeat: under the 30 s idle timeout
    expect([h.engine.getRun(a).status, h.engine.getRun(b).status]).toEqual(['RUNNING', 'RUNNING']);
    const stats = h.engine.control.pluginControl(key, { kind: 'statistics' });
    expect(stats.answers).toEqual([
      { executionId: a, status: 'RUNNING', counts: { received: 1, emitted: 0 } },
      { executionId: b, status: 'RUNNING', counts: { received: 1, emitted: 0 } },
    ]);
    await h.clock.advanceAsync(10_000);
    expect(await h.engine.waitForRun(a)).toBe('FAILURE'); // no heartbeat: idle timeout
    expect(h.engine.getRun(a).nodes.find((n) => n.nodeId === 'x')!.status).toBe('TIMED_OUT');
    expect((await h.engine.control.audit({ offset: 0, limit: 10 })).total).toBe(0); // not audited like run commands
    release.open();
  });

  it('delivers other kinds to the handlers plugins registered through ctx.control, until the node ends; refuses signal bodies', async () => {
    const release = gate();
    const listening = processor('LISTEN', async (m, ctx) => {
      ctx.control.onControl((message) => ({ node: ctx.nodeId, run: ctx.executionId, got: message.body }));
      await release.opened;
      return [{ payload: m.payload }];
    });
    const h = harness([listening, recorder().plugin]);
    const id = await h.run(chain('handlers', [{ nodeId: 'l', type: 'LISTEN' }]));
    await h.settle();
    const key = { session: 'test', workflowId: 'handlers', nodeId: 'l' };
    expect(h.engine.control.pluginControl(key, { kind: 'reload', body: { level: 2 } })).toEqual({
      kind: 'reload',
      runs: 1,
      delivered: 1,
      answers: [{ node: 'l', run: id, got: { level: 2 } }],
    });
    expect(() => h.engine.control.pluginControl(key, { kind: 'signal', body: {} })).toThrow(/refuses signal bodies/);
    release.open();
    await h.engine.waitForRun(id);
    expect(h.engine.control.pluginControl(key, { kind: 'reload' })).toMatchObject({ runs: 0, delivered: 0 }); // unregistered when the node ended
  });
});
