import { describe, expect, it } from 'vitest';
import { transformPlugin } from './transform.plugin';

type Ctx = Parameters<NonNullable<typeof transformPlugin.process>>[2];
const ctx = { executionId: 'e1', nodeId: 'n1', workflowId: 'w1', session: 's1', services: {} } as unknown as Ctx;
const message = { payload: { name: 'Ada' }, metadata: { source: 'api' } };
const run = (set: Record<string, unknown>) => transformPlugin.process!(message as never, { set, mode: 'merge' }, ctx);

describe('EXT-01 TRANSFORM', () => {
  it('reads the run context in templates and merges the fields over the payload', async () => {
    const [out] = (await run({ who: '${context.nodeId} of ${context.executionId} (${context.workflowId}, ${context.session})', n: 1 })) as Array<{
      payload: unknown;
      metadata: unknown;
    }>;
    expect(out!.payload).toEqual({ name: 'Ada', who: 'n1 of e1 (w1, s1)', n: 1 });
    expect(out!.metadata).toEqual({ source: 'api' });
    expect(out!.metadata).not.toBe(message.metadata);
  });
});

describe('EXT-01 TRANSFORM with plain values', () => {
  it('writes plain numbers, booleans, null and text as they are, over the payload, without touching the input', async () => {
    const [out] = (await run({ step: 3, ok: true, none: null, note: 'plain $ text' })) as Array<{ payload: unknown }>;
    expect(out!.payload).toEqual({ name: 'Ada', step: 3, ok: true, none: null, note: 'plain $ text' });
    expect(message.payload).toEqual({ name: 'Ada' });
  });
  it('still renders templates nested inside objects and arrays beside plain values', async () => {
    const [out] = (await run({ step: 3, nested: { who: '${payload.name}' }, list: ['${metadata.source}', 1] })) as Array<{ payload: unknown }>;
    expect(out!.payload).toEqual({ name: 'Ada', step: 3, nested: { who: 'Ada' }, list: ['api', 1] });
  });
});
