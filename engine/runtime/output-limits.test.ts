import { describe, expect, it } from 'vitest';
import type { Message } from './message';
import { chain, harness, processor, recorder } from '../test-support/engine-harness';

/** Objects nested `levels` deep: `{a: {a: … {}}}`. */
function nested(levels: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let i = 1; i < levels; i++) value = { a: value };
  return value;
}

/** Small limits so the tests stay small: 8 levels, 4 KiB. */
const LIMITS = { security: { settings: { maxDepth: 8, maxMessageBytes: 4096 } } };

const wrapInput = processor('WRAP', (m: Message) => [{ payload: { wrapped: m.payload } }]);
const passInput = processor('PASS', (m: Message) => [{ payload: m.payload }]);
const bloat = processor('BLOAT', () => [{ payload: { text: 'x'.repeat(5000) } }]);

describe('SEC-03 every plugin output is held to max-depth and max-message-bytes where it leaves the plugin', () => {
  it('an output one level over the depth limit fails the node (FAIL policy) with MESSAGE_TOO_DEEP; its child never sees it', async () => {
    const rec = recorder();
    const h = harness([wrapInput, rec.plugin], LIMITS);
    const id = await h.run(chain('deep', [{ nodeId: 'w', type: 'WRAP' }]), nested(8)); // the input is exactly at the limit
    expect(await h.engine.waitForRun(id)).toBe('FAILURE');
    const node = h.engine.getRun(id).nodes.find((n) => n.nodeId === 'w')!;
    expect(node.status).toBe('FAILURE');
    expect(node.error).toMatchObject({ code: 'MESSAGE_TOO_DEEP', message: 'node "w" output nests deeper than 8 levels (yukta.execution.max-depth)' });
    expect(rec.seen).toEqual([]);
  });

  it('passing the input on unchanged is not checked again, and an output within the limits flows', async () => {
    const rec = recorder();
    const h = harness([passInput, rec.plugin], LIMITS);
    const id = await h.run(chain('pass', [{ nodeId: 'p', type: 'PASS' }]), nested(8));
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    expect(rec.seen).toEqual([nested(8)]);
  });

  it('an output over the size limit fails with MESSAGE_TOO_LARGE', async () => {
    const h = harness([bloat, recorder().plugin], LIMITS);
    const id = await h.run(chain('big', [{ nodeId: 'b', type: 'BLOAT' }]));
    expect(await h.engine.waitForRun(id)).toBe('FAILURE');
    expect(h.engine.getRun(id).nodes.find((n) => n.nodeId === 'b')!.error).toMatchObject({
      code: 'MESSAGE_TOO_LARGE',
      message: 'node "b" output is larger than 4096 bytes as JSON (yukta.execution.max-message-bytes)',
    });
  });

  it('the failure policy applies: ROUTE sends {error, input} to the error port, like any failed attempt; it is never retried', async () => {
    let calls = 0;
    const counted = processor('WRAP_COUNTED', (m: Message) => {
      calls++;
      return [{ payload: { wrapped: m.payload } }];
    });
    const ok = recorder('OK');
    const dead = recorder('DEAD');
    const h = harness([counted, ok.plugin, dead.plugin], LIMITS);
    const id = await h.run(
      {
        workflowId: 'route',
        nodes: [
          { nodeId: 't', type: 'API_TRIGGER' },
          { nodeId: 'w', type: 'WRAP_COUNTED', config: { engine: { onError: 'ROUTE', retry: { maxAttempts: 3 } } } },
          { nodeId: 'ok', type: 'OK' },
          { nodeId: 'dead', type: 'DEAD' },
        ],
        edges: [
          { source: 't', target: 'w' },
          { source: 'w', target: 'ok' },
          { source: 'w', target: 'dead', sourcePort: 'error' },
        ],
      },
      { n: nested(7) },
    );
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    expect(calls).toBe(1); // bad input (the output is what it is): not retried
    expect(ok.seen).toEqual([]);
    expect(dead.seen).toEqual([
      {
        error: { name: 'BadInputError', code: 'MESSAGE_TOO_DEEP', message: 'node "w" output nests deeper than 8 levels (yukta.execution.max-depth)' },
        input: { n: nested(7) },
      },
    ]);
  });

  it('all or nothing under a policy: when one output of an attempt is over a limit, none of them is sent', async () => {
    const mixed = processor('MIXED', () => [{ payload: { fine: true } }, { payload: nested(9) }]);
    const ok = recorder('OK');
    const h = harness([mixed, ok.plugin], LIMITS);
    const id = await h.run(chain('mixed', [{ nodeId: 'm', type: 'MIXED', config: { engine: { onError: 'CONTINUE' } } }], 'OK'));
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    expect(ok.seen).toEqual([]);
    expect(h.engine.getRun(id).nodes.find((n) => n.nodeId === 'm')!.counts.failed).toBe(1);
  });

  it('streamed outputs (async iterables) and a built-in (TRANSFORM) are checked the same way', async () => {
    const stream = processor('STREAM', async function* () {
      yield { payload: { fine: true } };
      yield { payload: nested(9) };
    });
    const rec = recorder();
    const h = harness([stream, rec.plugin], LIMITS);
    const streamed = await h.run(chain('stream', [{ nodeId: 's', type: 'STREAM' }]));
    expect(await h.engine.waitForRun(streamed)).toBe('FAILURE');
    expect(h.engine.getRun(streamed).nodes.find((n) => n.nodeId === 's')!.error).toMatchObject({ code: 'MESSAGE_TOO_DEEP' });
    // TRANSFORM merges a config value into the payload: the value is within the definition's limits, the output is not.
    const transformed = await h.run(chain('transform', [{ nodeId: 'x', type: 'TRANSFORM', config: { set: { deep: nested(8) }, mode: 'merge' } }]));
    expect(await h.engine.waitForRun(transformed)).toBe('FAILURE');
    expect(h.engine.getRun(transformed).nodes.find((n) => n.nodeId === 'x')!.error).toMatchObject({
      code: 'MESSAGE_TOO_DEEP',
      message: 'node "x" output nests deeper than 8 levels (yukta.execution.max-depth)',
    });
  });

  it("AGGREGATE's output at the end of its input (finish) is checked too", async () => {
    const rec = recorder();
    const h = harness([rec.plugin], LIMITS);
    const id = await h.run(chain('agg', [{ nodeId: 'g', type: 'AGGREGATE', config: { mode: 'all' } }]), nested(8));
    expect(await h.engine.waitForRun(id)).toBe('FAILURE'); // {items: [payload]} adds two levels
    expect(h.engine.getRun(id).nodes.find((n) => n.nodeId === 'g')!.error).toMatchObject({ code: 'MESSAGE_TOO_DEEP' });
  });

  it('a start payload over the depth limit is refused before any run exists, naming payload', async () => {
    const h = harness([recorder().plugin], LIMITS);
    await h.engine.saveWorkflow('test', chain('start', []));
    await expect(h.engine.startRun({ session: 'test', workflowId: 'start', payload: nested(9) })).rejects.toMatchObject({
      code: 'BAD_INPUT',
      message: 'payload.a.a.a.a.a… nests deeper than 8 levels (yukta.execution.max-depth)',
    });
    expect(h.engine.listRuns({ limit: 10 })).toEqual([]);
  });
});
