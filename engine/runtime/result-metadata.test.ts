import { describe, expect, it } from 'vitest';
import { chain, harness, processor, recorder } from '../test-support/engine-harness';

describe('OBS-03 results carry the message metadata (issue 15 item 9: the Results metadata toggle)', () => {
  it('a terminal input with metadata publishes it on NODE_RESULT and in the run detail; one without has none', async () => {
    const tag = processor('TAG', (m) => [
      { payload: m.payload, metadata: { ...m.metadata, 'signal.decision': 'APPROVED', 'signal.actor': 'ops', 'signal.data': '{"by":"ops"}' } },
    ]);
    const h = harness([tag, recorder().plugin]);
    const tagged = await h.run(chain('m', [{ nodeId: 'tag', type: 'TAG' }]), { n: 1 });
    expect(await h.engine.waitForRun(tagged)).toBe('SUCCESS');
    const result = h.events.find((e) => e.type === 'NODE_RESULT' && e.executionId === tagged);
    expect(result?.type === 'NODE_RESULT' && result.metadata).toEqual({ 'signal.decision': 'APPROVED', 'signal.actor': 'ops', 'signal.data': '{"by":"ops"}' });
    expect(h.engine.getRun(tagged).results[0]?.metadata).toEqual({ 'signal.decision': 'APPROVED', 'signal.actor': 'ops', 'signal.data': '{"by":"ops"}' });

    const plain = await h.run(chain('p', []), { n: 2 });
    expect(await h.engine.waitForRun(plain)).toBe('SUCCESS');
    const bare = h.events.find((e) => e.type === 'NODE_RESULT' && e.executionId === plain);
    expect(bare?.type === 'NODE_RESULT' && 'metadata' in bare).toBe(false);
  });
});
