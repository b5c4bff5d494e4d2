import { describe, expect, it } from 'vitest';
import type { EngineError } from '../engine-errors';
import { chain, gate, harness, processor, recorder } from '../test-support/engine-harness';

const orders = [40, 41, 42, 43, 44].map((n) => ({ order: { id: String(n) } }));

/** t → s (SPLIT of payload.orders) → x (TRANSFORM) → out (REC); the split is paused at start. */
async function splitRun(h: ReturnType<typeof harness>, workflowId: string): Promise<string> {
  const def = chain(workflowId, [
    { nodeId: 's', type: 'SPLIT', config: { path: 'payload.orders' } },
    { nodeId: 'x', type: 'TRANSFORM' },
  ]);
  return h.run(def, { orders }, { paused: ['s'] });
}

const node = (h: ReturnType<typeof harness>, id: string, nodeId: string) => h.engine.control.state(id).nodes.find((n) => n.nodeId === nodeId)!;

describe('CTL-02 pause, step, breakpoint and skip', () => {
  it('breakpoint on payload.order.id == "42": holds exactly there; replace; step 1; the terminal gets the replaced payload', async () => {
    const rec = recorder();
    const h = harness([rec.plugin]);
    const id = await splitRun(h, 'bp');
    const send = (command: Parameters<typeof h.engine.control.send>[1]) => h.engine.control.send(id, command, 'ui:local');
    await send({ type: 'SetBreakpoint', nodeId: 'x', path: 'payload.order.id', equals: '42' });
    await send({ type: 'ResumeNode', nodeId: 's' });
    await h.settle();
    const held = node(h, id, 'x');
    expect(held.held).toMatchObject({ payload: { order: { id: '42' } } });
    expect(held.paused).toBe(true);
    expect(rec.seen).toEqual([orders[0], orders[1]]); // exactly the messages before the match went through
    await send({ type: 'ReplaceHeldMessage', nodeId: 'x', payload: { order: { id: '42', note: 'fixed' } } });
    expect(node(h, id, 'x').held!.payload).toEqual({ order: { id: '42', note: 'fixed' } });
    await send({ type: 'Step', nodeId: 'x', count: 1 });
    await h.settle();
    expect(rec.seen).toEqual([orders[0], orders[1], { order: { id: '42', note: 'fixed' } }]);
    expect(node(h, id, 'x')).toMatchObject({ paused: true, stepRemaining: null }); // holds again after one
    await send({ type: 'ResumeNode', nodeId: 'x' });
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    expect(rec.seen).toEqual([orders[0], orders[1], { order: { id: '42', note: 'fixed' } }, orders[3], orders[4]]);
    const { entries } = await h.engine.control.audit({ executionId: id, offset: 0, limit: 10 });
    expect(entries.map((e) => e.status).reverse()).toEqual(['SetBreakpoint', 'ResumeNode', 'ReplaceHeldMessage', 'Step', 'ResumeNode']);
  });

  it('a breakpoint on metadata.key matches the metadata value; ClearBreakpoint removes it', async () => {
    const tag = processor('TAG', (m) => [
      { payload: m.payload, metadata: { region: (m.payload as { order: { id: string } }).order.id === '43' ? 'eu' : 'us' } },
    ]);
    const rec = recorder();
    const h = harness([tag, rec.plugin]);
    const def = chain('meta', [
      { nodeId: 's', type: 'SPLIT', config: { path: 'payload.orders' } },
      { nodeId: 'tag', type: 'TAG' },
      { nodeId: 'x', type: 'TRANSFORM' },
    ]);
    const id = await h.run(def, { orders }, { paused: ['s'] });
    await h.engine.control.send(id, { type: 'SetBreakpoint', nodeId: 'x', path: 'metadata.region', equals: 'eu' }, 'ui:local');
    await h.engine.control.send(id, { type: 'ResumeNode', nodeId: 's' }, 'ui:local');
    await h.settle();
    expect(node(h, id, 'x').held!.payload).toEqual(orders[3]);
    await h.engine.control.send(id, { type: 'ClearBreakpoint', nodeId: 'x' }, 'ui:local');
    expect(node(h, id, 'x').breakpoint).toBeNull();
    await h.engine.control.send(id, { type: 'ResumeNode', nodeId: 'x' }, 'ui:local');
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    expect(rec.seen).toHaveLength(5);
  });

  it('pause stops taking messages and freezes the node clocks (a paused wait never times out); step n lets exactly n through', async () => {
    const rec = recorder();
    const slow = processor('SLOW', async (m, ctx) => (await ctx.sleep(100), [{ payload: m.payload }]), { defaultTimeoutMs: () => 150 });
    const h = harness([slow, rec.plugin]);
    const def = chain('pause', [
      { nodeId: 's', type: 'SPLIT', config: { path: 'payload.orders' } },
      { nodeId: 'w', type: 'SLOW' },
    ]);
    const id = await h.run(def, { orders });
    await h.clock.advanceAsync(50); // first message inside the plugin
    await h.engine.control.send(id, { type: 'PauseWorkflow' }, 'ui:local');
    await h.clock.advanceAsync(100_000); // frozen clocks: no idle timeout, no progress
    expect(rec.seen).toEqual([]);
    await h.engine.control.send(id, { type: 'ResumeWorkflow' }, 'ui:local');
    await h.clock.advanceAsync(50);
    expect(rec.seen).toEqual([orders[0]]); // the one in the plugin finished, on its own clock
    await h.engine.control.send(id, { type: 'PauseNode', nodeId: 'w' }, 'ui:local');
    await h.clock.advanceAsync(1_000);
    await h.engine.control.send(id, { type: 'Step', nodeId: 'w', count: 2 }, 'ui:local');
    await h.clock.advanceAsync(1_000);
    expect(rec.seen).toHaveLength(3);
    expect(node(h, id, 'w').paused).toBe(true);
    await h.engine.control.send(id, { type: 'ResumeNode', nodeId: 'w' }, 'ui:local');
    await h.clock.advanceAsync(1_000);
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
  });

  it('step mode holds the whole run before every message; Step without a node lets n through each node', async () => {
    const rec = recorder();
    const h = harness([rec.plugin]);
    const id = await splitRun(h, 'stepmode');
    await h.engine.control.send(id, { type: 'StepMode', enabled: true }, 'ui:local');
    expect(h.engine.control.state(id)).toMatchObject({ paused: true, stepMode: true });
    await h.engine.control.send(id, { type: 'Step', count: 1 }, 'ui:local');
    await h.settle();
    expect(rec.seen).toEqual([orders[0]]); // one message through each node: the split's input, then one order each
    await h.engine.control.send(id, { type: 'Step', nodeId: 'x', count: 1 }, 'ui:local');
    await h.settle();
    expect(rec.seen).toEqual([orders[0]]); // x let the next one go, the terminal holds it
    expect(node(h, id, 'out').held!.payload).toEqual(orders[1]);
    await h.engine.control.send(id, { type: 'StepMode', enabled: false }, 'ui:local');
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    expect(rec.seen).toHaveLength(5);
    expect(h.engine.control.state(id).live).toBe(false);
  });

  it('skip passes messages through without the plugin from the next one on; unskip calls it again; other kinds are refused', async () => {
    const release = gate();
    let calls = 0;
    const count = processor('COUNT', async (m) => (calls++, await release.opened, [{ payload: { ...(m.payload as object), seen: true } }]));
    const rec = recorder();
    const h = harness([count, rec.plugin]);
    const def = chain('skip', [
      { nodeId: 's', type: 'SPLIT', config: { path: 'payload.orders' } },
      { nodeId: 'c', type: 'COUNT' },
    ]);
    const id = await h.run(def, { orders });
    await h.settle();
    expect(calls).toBe(1);
    for (const [nodeId, kind] of [
      ['t', 'trigger'],
      ['out', 'terminal'],
    ] as const) {
      const error = await h.engine.control.send(id, { type: 'Skip', nodeId }, 'ui:local').catch((e: EngineError) => e);
      expect(error).toMatchObject({ code: 'BAD_INPUT', message: `only processors can be skipped; "${nodeId}" is a ${kind}` });
    }
    await h.engine.control.send(id, { type: 'Skip', nodeId: 'c' }, 'ui:local');
    release.open(); // the one already in the plugin finishes normally
    await h.settle();
    expect(rec.seen).toEqual([{ ...orders[0], seen: true }, ...orders.slice(1)]);
    expect(calls).toBe(1);
  });

  it('unskip resumes calling the plugin; ReplaceHeldMessage without a held message is refused', async () => {
    const rec = recorder();
    const h = harness([rec.plugin]);
    const def = chain('unskip', [
      { nodeId: 's', type: 'SPLIT', config: { path: 'payload.orders' } },
      { nodeId: 'x', type: 'TRANSFORM', config: { set: { ok: true } } },
    ]);
    const id = await h.run(def, { orders }, { paused: ['x'], skipped: ['x'] });
    const none = await h.engine.control.send(id, { type: 'ReplaceHeldMessage', nodeId: 'out', payload: 1 }, 'ui:local').catch((e: EngineError) => e);
    expect(none).toMatchObject({ code: 'CONFLICT', message: 'node "out" holds no message (set a breakpoint or pause it first)' });
    await h.engine.control.send(id, { type: 'Step', nodeId: 'x', count: 2 }, 'ui:local');
    await h.settle();
    await h.engine.control.send(id, { type: 'Unskip', nodeId: 'x' }, 'ui:local');
    await h.engine.control.send(id, { type: 'ResumeNode', nodeId: 'x' }, 'ui:local');
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    expect(rec.seen).toEqual([orders[0], orders[1], ...orders.slice(2).map((o) => ({ ...o, ok: true }))]);
  });
});
