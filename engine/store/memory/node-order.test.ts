import { describe, expect, it } from 'vitest';
import { MemoryCheckpointStore } from './memory-checkpoint-store';
import { NodeOrder, NodeOrders } from './node-order';

const msg = (payload: unknown) => ({ port: 'out', payload, metadata: {} });

describe('DUR-02 runs of the memory store share the order their nodes were written in', () => {
  it('a run moving along an order shares it; one writing another node beyond where it is gets its own copy', () => {
    const first = new NodeOrders().startingWith('a');
    const shared = first.extended(1, 'b').extended(2, 'c');
    expect(shared).toBe(first);
    expect(shared.extended(1, 'b')).toBe(shared);
    const other = shared.extended(1, 'x');
    expect(other).not.toBe(shared);
    expect(other.ids).toEqual(['a', 'x']);
    expect(shared.ids).toEqual(['a', 'b', 'c']);
    expect(new NodeOrder(['a']).indexOf('z')).toBe(-1);
  });

  it('each run reads only the nodes it wrote, whatever order other runs wrote theirs in', async () => {
    const store = new MemoryCheckpointStore();
    for (const node of ['t', 'a', 'b']) store.append('r1', node, msg(`r1-${node}`));
    for (const node of ['t', 'a']) store.append('r2', node, msg(`r2-${node}`));
    for (const node of ['t', 'b', 'a']) store.append('r3', node, msg(`r3-${node}`));
    store.writer('r2', 'c').markDone('SUCCESS');
    const payloads = async (run: string, node: string) => (await store.read(run, node))?.messages.map((m) => m.payload) ?? null;
    expect(await payloads('r1', 'b')).toEqual(['r1-b']);
    expect(await payloads('r2', 'b')).toBeNull();
    expect(await store.read('r2', 'c')).toEqual({ messages: [], end: 'SUCCESS', overCap: null });
    expect(await payloads('r1', 'c')).toBeNull();
    expect(await payloads('r3', 'b')).toEqual(['r3-b']);
    expect(await payloads('r3', 'a')).toEqual(['r3-a']);
    expect(await payloads('r1', 'a')).toEqual(['r1-a']);
  });
});
