import { describe, expect, it } from 'vitest';
import { chain, harness, processor, recorder } from '../test-support/engine-harness';

/** A plugin that always throws, counting its attempts. */
function failing(message: string) {
  return processor('BROKEN', () => {
    throw new Error(message);
  });
}

describe('OBS-02 failures where the user looks: ERROR lines and the failed node error', () => {
  it('logs one ERROR line per failed attempt, the last one too, naming attempt n of m', async () => {
    const h = harness([failing('upstream said 503'), recorder().plugin]);
    const id = await h.run(
      chain('f', [{ nodeId: 'call', type: 'BROKEN', config: { engine: { retry: { maxAttempts: 3, backoffMs: 10, maxBackoffMs: 10 } } } }]),
      { order: 7 },
    );
    for (let i = 0; i < 5; i++) {
      await h.settle();
      h.clock.advance(10);
    }
    expect(await h.engine.waitForRun(id)).toBe('FAILURE');
    const errors = h.events.flatMap((e) => (e.type === 'LOG' && e.nodeId === 'call' && e.level === 'error' ? [e.text] : []));
    expect(errors).toHaveLength(3);
    expect(errors[0]).toMatch(/^attempt 1 of 3 failed \(Error: upstream said 503\); retrying in \d+ ms$/);
    expect(errors[1]).toMatch(/^attempt 2 of 3 failed \(Error: upstream said 503\); retrying in \d+ ms$/);
    expect(errors[2]).toBe('attempt 3 of 3 failed: Error: upstream said 503');
  });

  it('the failed node error carries the last attempt, the allowed attempts and the input; the run error names the node', async () => {
    const h = harness([failing('no such customer'), recorder().plugin]);
    const id = await h.run(chain('g', [{ nodeId: 'lookup', type: 'BROKEN' }]), { customer: 'C-42' });
    expect(await h.engine.waitForRun(id)).toBe('FAILURE');
    const end = h.events.find((e) => e.type === 'NODE_STATUS' && e.nodeId === 'lookup' && e.status === 'FAILURE');
    expect(end?.type === 'NODE_STATUS' && end.error).toEqual({
      name: 'Error',
      message: 'no such customer',
      attempt: 1,
      maxAttempts: 1,
      input: { customer: 'C-42' },
    });
    const run = h.events.find((e) => e.type === 'EXECUTION_STATUS' && e.status === 'FAILURE');
    expect(run?.type === 'EXECUTION_STATUS' && run.error).toMatchObject({ nodeId: 'lookup', message: 'node "lookup" failed: no such customer' });
  });

  it('cuts a large input to 2,048 characters of JSON text', async () => {
    const h = harness([failing('too big'), recorder().plugin]);
    const id = await h.run(chain('h', [{ nodeId: 'big', type: 'BROKEN' }]), { text: 'x'.repeat(5000) });
    expect(await h.engine.waitForRun(id)).toBe('FAILURE');
    const end = h.events.find((e) => e.type === 'NODE_STATUS' && e.nodeId === 'big' && e.status === 'FAILURE');
    const input = end?.type === 'NODE_STATUS' ? end.error?.input : undefined;
    expect(typeof input).toBe('string');
    expect(input).toBe(`{"text":"${'x'.repeat(2048 - 9)}…`);
  });
});
