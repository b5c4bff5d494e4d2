import { describe, expect, it } from 'vitest';
import type { EngineError } from '../engine-errors';
import type { StudioEvent } from '../../shared/events/events';
import { chain, harness, recorder } from '../test-support/engine-harness';

const items = [1, 2, 3].map((n) => ({ n }));
type NodeStatus = Extract<StudioEvent, { type: 'NODE_STATUS' }>;
const nodeEvents = (events: StudioEvent[], id: string, nodeId: string) =>
  events.filter((e): e is NodeStatus => e.type === 'NODE_STATUS' && e.executionId === id && e.nodeId === nodeId);

describe('STU-04 debugger feed: held messages and edge buffers on NODE_STATUS', () => {
  it('reports the id of a message held at a breakpoint, and null once it moved on', async () => {
    const rec = recorder();
    const h = harness([rec.plugin]);
    const def = chain('held', [
      { nodeId: 's', type: 'SPLIT', config: { path: 'payload.items' } },
      { nodeId: 'x', type: 'TRANSFORM' },
    ]);
    const id = await h.run(def, { items }, { breakpoints: [{ nodeId: 'x', path: 'payload.n', equals: '2' }] });
    await h.settle();
    const held = h.engine.control.state(id).nodes.find((n) => n.nodeId === 'x')!.held!;
    expect(held.payload).toEqual({ n: 2 });
    expect(
      nodeEvents(h.events, id, 'x')
        .filter((e) => e.held !== undefined)
        .map((e) => e.held),
    ).toEqual([held.id]);
    await h.engine.control.send(id, { type: 'ResumeNode', nodeId: 'x' }, 'ui:local');
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    expect(
      nodeEvents(h.events, id, 'x')
        .filter((e) => e.held !== undefined)
        .map((e) => e.held),
    ).toEqual([held.id, null]);
    expect(rec.seen).toEqual(items);
  });

  it('says how full a node input buffer is (triggers have none)', async () => {
    const h = harness([recorder().plugin]);
    const id = await h.run(chain('buffers', [{ nodeId: 'x', type: 'TRANSFORM' }]), {});
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    expect(nodeEvents(h.events, id, 'x').at(-1)!.buffer).toEqual({ used: 0, size: 64 });
    expect(nodeEvents(h.events, id, 't').every((e) => e.buffer === undefined)).toBe(true);
  });
});

describe('STU-04 recorded messages of a run', () => {
  it('gives a node outputs and its inputs (the parent outputs on the edges into it), paged', async () => {
    const h = harness([recorder().plugin]);
    const def = chain('rec', [
      { nodeId: 's', type: 'SPLIT', config: { path: 'payload.items' } },
      { nodeId: 'x', type: 'TRANSFORM', config: { set: { seen: true } } },
    ]);
    const id = await h.run(def, { items });
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    const page = await h.engine.control.recorded(id, 'x', { offset: 1, limit: 1 });
    expect(page.outputs).toMatchObject({ total: 3, end: 'SUCCESS', overCap: null, messages: [{ index: 1, port: 'out', payload: { n: 2, seen: true } }] });
    expect(page.inputs).toEqual([
      expect.objectContaining({
        from: 's',
        port: 'out',
        total: 3,
        messages: [expect.objectContaining({ index: 1, payload: { n: 2 }, metadata: expect.objectContaining({ 'split.index': '1' }) })],
      }),
    ]);
    await expect(h.engine.control.recorded(id, 'nope', { offset: 0, limit: 10 })).rejects.toThrow(
      expect.objectContaining({ code: 'NOT_FOUND' }) as EngineError,
    );
    await expect(h.engine.control.recordedSummary('missing')).rejects.toThrow(/not in the run archive/);
  });

  it('summarises every node output with a digest: equal runs agree, a changed output differs', async () => {
    const h = harness([recorder().plugin]);
    const def = chain('digest', [
      { nodeId: 'x', type: 'TRANSFORM', config: { set: { v: '${payload.v}' } } },
      { nodeId: 'y', type: 'TRANSFORM', config: { set: { fixed: 1 }, mode: 'replace' } },
    ]);
    const a = await h.run(def, { v: 1 });
    const b = await h.run(def, { v: 1 });
    const c = await h.run(def, { v: 2 });
    for (const id of [a, b, c]) expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    const digests = async (id: string) => Object.fromEntries((await h.engine.control.recordedSummary(id)).nodes.map((n) => [n.nodeId, n.digest]));
    expect(await digests(a)).toEqual(await digests(b));
    const [da, dc] = [await digests(a), await digests(c)];
    expect(
      Object.keys(da)
        .filter((n) => da[n] !== dc[n])
        .sort(),
    ).toEqual(['t', 'x']);
    expect(await h.engine.control.recordedSummary(a)).toMatchObject({
      recorded: true,
      nodes: expect.arrayContaining([{ nodeId: 'out', outputs: 0, digest: expect.any(String), end: 'SUCCESS', overCap: null }]),
    });
  });
});
