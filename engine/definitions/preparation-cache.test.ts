import { describe, expect, it } from 'vitest';
import type { PreparedWorkflow } from '../runtime/prepared-workflow';
import { harness, recorder } from '../test-support/engine-harness';
import { PreparationCache } from './preparation-cache';

const fake = (version: string) => ({ version }) as unknown as PreparedWorkflow;

describe('DEF-03 preparation and compile cache', () => {
  it('concurrent starts of an unprepared workflow share one preparation', async () => {
    const cache = new PreparationCache();
    let prepared = 0;
    const prepare = () => {
      prepared++;
      return fake('v1');
    };
    const all = await Promise.all(Array.from({ length: 10 }, () => cache.get('v1', prepare)));
    expect(prepared).toBe(1);
    expect(new Set(all).size).toBe(1);
  });

  it('is keyed by content: an edit is prepared anew and an old compile never stands in for it', async () => {
    const rec = recorder();
    const h = harness([rec.plugin]);
    const v1 = {
      workflowId: 'w',
      nodes: [
        { nodeId: 't', type: 'API_TRIGGER' },
        { nodeId: 'x', type: 'TRANSFORM', config: { set: { v: 1 } } },
        { nodeId: 'o', type: 'REC' },
      ],
      edges: [
        { source: 't', target: 'x' },
        { source: 'x', target: 'o' },
      ],
    };
    await h.engine.waitForRun(await h.run(v1));
    await h.engine.waitForRun(await h.run(v1));
    const v2 = { ...v1, nodes: v1.nodes.map((n) => (n.nodeId === 'x' ? { ...n, config: { set: { v: 2 } } } : n)) };
    await h.engine.waitForRun(await h.run(v2));
    expect(rec.seen).toEqual([{ v: 1 }, { v: 1 }, { v: 2 }]);
  });

  it('forgets a failed preparation and stays bounded', async () => {
    const cache = new PreparationCache(2);
    await expect(
      cache.get('bad', () => {
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    expect(cache.stats().size).toBe(0);
    await cache.get('a', () => fake('a'));
    await cache.get('b', () => fake('b'));
    await cache.get('a', () => fake('a'));
    await cache.get('c', () => fake('c')); // evicts b, the least recently used
    let again = 0;
    await cache.get('b', () => (again++, fake('b')));
    expect(again).toBe(1);
    expect(cache.stats()).toMatchObject({ size: 2, hits: 1 });
  });

  it('yukta.version runs that saved version, bypassing the cache', async () => {
    const rec = recorder();
    const h = harness([rec.plugin]);
    const v1 = {
      workflowId: 'pin',
      nodes: [
        { nodeId: 't', type: 'API_TRIGGER' },
        { nodeId: 'x', type: 'TRANSFORM', config: { set: { v: 1 } } },
        { nodeId: 'o', type: 'REC' },
      ],
      edges: [
        { source: 't', target: 'x' },
        { source: 'x', target: 'o' },
      ],
    };
    const first = await h.engine.saveWorkflow('test', v1);
    await h.engine.saveWorkflow('test', { ...v1, nodes: v1.nodes.map((n) => (n.nodeId === 'x' ? { ...n, config: { set: { v: 2 } } } : n)) });
    const { executionId } = await h.engine.startRun({ session: 'test', workflowId: 'pin', payload: { 'yukta.version': first.version } });
    expect(await h.engine.waitForRun(executionId)).toBe('SUCCESS');
    expect((rec.seen[0] as { v: number }).v).toBe(1);
    expect(h.engine.getRun(executionId).definitionVersion).toBe(first.version);
    await expect(h.engine.startRun({ session: 'test', workflowId: 'pin', payload: { 'yukta.version': 'nope' } })).rejects.toMatchObject({
      code: 'BAD_INPUT',
      path: 'payload.yukta.version',
    });
  });
});
