import { describe, expect, it } from 'vitest';
import { chain, harness, processor, recorder } from '../test-support/engine-harness';
import { childBudget } from './time-budget';

/** A node that takes `payload.ms` of engine time (or forever without it), watching its signal. */
const slow = processor('SLOW', async (m, ctx) => {
  const ms = (m.payload as { ms?: number }).ms;
  if (ms === undefined) await new Promise((_resolve, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason as Error)));
  else await ctx.sleep(ms);
  return [{ payload: m.payload }];
});

function setup() {
  const h = harness([slow, recorder().plugin]);
  return h;
}

describe('ADM-04 start payload keys and time budgets', () => {
  it.each([
    ['yukta.priority', 'high', 'must be a number'],
    ['yukta.fairnessKey', 'has space', 'A-Z a-z 0-9 . _ -'],
    ['yukta.fairnessKey', 'x'.repeat(257), 'A-Z a-z 0-9 . _ -'],
    ['yukta.fairnessWeight', 0, 'more than 0'],
    ['yukta.fairnessWeight', 2 ** 20 + 1, 'at most 1048576'],
    ['yukta.timeBudget', 0, 'from 1 to 2147483647'],
    ['yukta.timeBudget', 2 ** 31, 'from 1 to 2147483647'],
    ['yukta.timeBudget', 1.5, 'whole number'],
  ])('refuses %s = %j as BAD_INPUT naming the key, and starts nothing', async (key, value, text) => {
    const h = setup();
    await h.engine.saveWorkflow('test', chain('w', []));
    const refused = h.engine.startRun({ session: 'test', workflowId: 'w', payload: { [key]: value } });
    await expect(refused).rejects.toMatchObject({ code: 'BAD_INPUT', path: `payload.${key}`, message: expect.stringContaining(text) });
    expect(h.events).toEqual([]);
  });

  it('accepts the largest key and weight, and a fractional weight', async () => {
    const h = setup();
    await h.engine.saveWorkflow('test', chain('w', []));
    const payload = { 'yukta.fairnessKey': 'Tenant-42.a_b'.padEnd(256, 'x'), 'yukta.fairnessWeight': 2 ** 20, 'yukta.priority': -2.5 };
    await expect(h.engine.startRun({ session: 'test', workflowId: 'w', payload })).resolves.toBeTruthy();
    await expect(h.engine.startRun({ session: 'test', workflowId: 'w', payload: { 'yukta.fairnessWeight': 0.25 } })).resolves.toBeTruthy();
  });

  it("the run's time budget bounds every node attempt (virtual time)", async () => {
    const h = setup();
    const id = await h.run(
      chain('budget', [
        { nodeId: 'a', type: 'SLOW' },
        { nodeId: 'b', type: 'SLOW' },
      ]),
      { ms: 400, 'yukta.timeBudget': 500 },
    );
    await h.clock.advanceAsync(799);
    expect(h.engine.getRun(id).status).toBe('RUNNING');
    await h.clock.advanceAsync(1);
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');

    const slowRun = await h.run(chain('budget2', [{ nodeId: 'a', type: 'SLOW' }]), { 'yukta.timeBudget': 500 });
    await h.clock.advanceAsync(499);
    expect(h.engine.getRun(slowRun).status).toBe('RUNNING');
    await h.clock.advanceAsync(1);
    expect(await h.engine.waitForRun(slowRun)).toBe('FAILURE');
    const node = h.engine.getRun(slowRun).nodes.find((n) => n.nodeId === 'a')!;
    expect(node.error).toMatchObject({ code: 'ELEMENT_TIMEOUT', message: expect.stringContaining('500 ms') });
  });

  it("a node's own smaller elementTimeoutMs wins over the budget; without a budget nothing changes", async () => {
    const h = setup();
    const wf = chain('own', [{ nodeId: 'a', type: 'SLOW', config: { engine: { elementTimeoutMs: 200 } } }]);
    const id = await h.run(wf, { 'yukta.timeBudget': 500 });
    await h.clock.advanceAsync(200);
    expect(await h.engine.waitForRun(id)).toBe('FAILURE');
    expect(h.engine.getRun(id).nodes.find((n) => n.nodeId === 'a')!.error).toMatchObject({ message: expect.stringContaining('200 ms') });

    const free = await h.run(chain('free', [{ nodeId: 'a', type: 'SLOW' }]), { ms: 20_000 });
    await h.clock.advanceAsync(20_000);
    expect(await h.engine.waitForRun(free)).toBe('SUCCESS');
  });

  it("a sub-workflow inherits its parent's budget; its own payload may only shorten it", () => {
    expect(childBudget(undefined, undefined)).toBeUndefined();
    expect(childBudget(500, undefined)).toBe(500);
    expect(childBudget(500, 900)).toBe(500);
    expect(childBudget(500, 100)).toBe(100);
    expect(childBudget(undefined, 100)).toBe(100);
  });
});
