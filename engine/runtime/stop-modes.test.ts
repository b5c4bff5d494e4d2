import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { definePlugin, type Plugin } from '../plugins/contract';
import { gate, harness, processor, recorder } from '../test-support/engine-harness';

/** A trigger that keeps producing until the engine stops pulling. */
const endless = definePlugin({
  type: 'ENDLESS',
  kind: 'trigger',
  title: '',
  description: '',
  configSchema: z.object({}),
  defaultConfig: {},
  outputs: ['out'],
  async *process(_m, _c, ctx) {
    for (let i = 0; ; i++) {
      await ctx.sleep(10);
      yield { payload: { i } };
    }
  },
}) as unknown as Plugin<never>;

describe('CTL-03 stop modes (engine side)', () => {
  it('DRAIN: the trigger stops producing, messages in flight reach the end, the run ends STOPPED', async () => {
    const rec = recorder();
    const slow = processor('SLOW', async (m, ctx) => {
      await ctx.sleep(25);
      return [{ payload: m.payload }];
    });
    const h = harness([endless, slow, rec.plugin]);
    const id = await h.run({
      workflowId: 'drain',
      nodes: [
        { nodeId: 'src', type: 'ENDLESS' },
        { nodeId: 's', type: 'SLOW' },
        { nodeId: 'out', type: 'REC' },
      ],
      edges: [
        { source: 'src', target: 's' },
        { source: 's', target: 'out' },
      ],
    });
    await h.clock.advanceAsync(100); // a few produced, some still in flight
    h.engine.liveRun(id)!.stop('DRAIN');
    const done = h.engine.waitForRun(id);
    await h.clock.advanceAsync(1_000);
    expect(await done).toBe('STOPPED');
    const produced = h.engine.getRun(id).nodes.find((n) => n.nodeId === 'src')!.counts.emitted;
    expect(rec.seen).toHaveLength(produced); // nothing produced was lost
    expect(h.statuses(id)).toMatchObject({ src: 'STOPPED', s: 'SUCCESS', out: 'SUCCESS' });
  });

  it('CANCEL: the signal fires, the call in the plugin may finish, the run ends CANCELLED', async () => {
    const release = gate();
    let sawAbort = false;
    let finished = false;
    const stubborn = processor('STUBBORN', async (m, ctx) => {
      ctx.signal.addEventListener('abort', () => (sawAbort = true));
      await release.opened; // ignores the signal on purpose
      finished = true;
      return [{ payload: m.payload }];
    });
    const rec = recorder();
    const h = harness([stubborn, rec.plugin]);
    const id = await h.run({
      workflowId: 'cancel',
      nodes: [
        { nodeId: 't', type: 'API_TRIGGER' },
        { nodeId: 'x', type: 'STUBBORN' },
        { nodeId: 'out', type: 'REC' },
      ],
      edges: [
        { source: 't', target: 'x' },
        { source: 'x', target: 'out' },
      ],
    });
    await h.settle();
    h.engine.liveRun(id)!.stop('CANCEL');
    expect(h.engine.getRun(id).status).toBe('CANCELLED');
    expect(sawAbort).toBe(true);
    await h.settle();
    expect(finished).toBe(false);
    release.open();
    expect(await h.engine.waitForRun(id)).toBe('CANCELLED');
    expect(finished).toBe(true);
    expect(rec.seen).toEqual([]); // its output went nowhere
  });

  it('KILL: work that never resolves is abandoned and the run is done at once', async () => {
    const never = processor('NEVER', () => new Promise<never>(() => {}));
    const h = harness([never, recorder().plugin]);
    const id = await h.run({
      workflowId: 'kill',
      nodes: [
        { nodeId: 't', type: 'API_TRIGGER' },
        { nodeId: 'x', type: 'NEVER' },
        { nodeId: 'out', type: 'REC' },
      ],
      edges: [
        { source: 't', target: 'x' },
        { source: 'x', target: 'out' },
      ],
    });
    await h.settle();
    h.engine.liveRun(id)!.stop('KILL');
    expect(await h.engine.waitForRun(id)).toBe('CANCELLED'); // resolves without any time passing
    expect(h.statuses(id)).toMatchObject({ x: 'CANCELLED', out: 'CANCELLED' });
  });

  it('stopping one node ends it STOPPED; its children see the end of their input', async () => {
    const rec = recorder();
    const h = harness([endless, rec.plugin]);
    const id = await h.run({
      workflowId: 'stopnode',
      nodes: [
        { nodeId: 'src', type: 'ENDLESS' },
        { nodeId: 'x', type: 'TRANSFORM' },
        { nodeId: 'out', type: 'REC' },
      ],
      edges: [
        { source: 'src', target: 'x' },
        { source: 'x', target: 'out' },
      ],
    });
    await h.clock.advanceAsync(55);
    h.engine.liveRun(id)!.stopNode('src');
    const done = h.engine.waitForRun(id);
    await h.clock.advanceAsync(100);
    expect(await done).toBe('SUCCESS');
    expect(h.statuses(id)).toMatchObject({ src: 'STOPPED', x: 'SUCCESS', out: 'SUCCESS' });
    expect(rec.seen.length).toBeGreaterThanOrEqual(4);
  });
});
