import { describe, expect, it } from 'vitest';
import { transformPlugin } from './transform.plugin';

type Ctx = Parameters<NonNullable<typeof transformPlugin.process>>[2];
const ctx = { executionId: 'e1', nodeId: 'n1', workflowId: 'w1', session: 's1', services: {} } as unknown as Ctx;
const message = { payload: { name: 'Ada' }, metadata: { source: 'api' } };
const run = (set: Record<string, unknown>) => transformPlugin.process!(message as never, { set, mode: 'merge' }, ctx);

describe('EXT-01 TRANSFORM', () => {
  it('reads the run context in templates and merges the fields over the payload', async () => {
    const [out] = (await run({ who: '${context.nodeId} of ${context.executionId} (${context.workflowId}, ${context.session})', n: 1 })) as Array<{ payload: unknown; metadata: unknown }>;
    expect(out!.payload).toEqual({ name: 'Ada', who: 'n1 of e1 (w1, s1)', n: 1 });
    expect(out!.metadata).toEqual({ source: 'api' });
    expect(out!.metadata).not.toBe(message.metadata);
  });
});
