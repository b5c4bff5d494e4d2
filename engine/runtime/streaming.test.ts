import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { definePlugin, type Plugin } from '../plugins/contract';
import { harness, processor, recorder } from '../test-support/engine-harness';

describe('ENG-01 streaming DAG and back-pressure', () => {
  it('1,000,000 messages into a slow consumer never hold more than the channel capacities in flight', async () => {
    const total = 1_000_000;
    let produced = 0;
    let consumed = 0;
    let maxInFlight = 0;
    let ordered = true;
    const source = definePlugin({
      type: 'MILLION',
      kind: 'trigger',
      title: '',
      description: '',
      configSchema: z.object({}),
      defaultConfig: {},
      outputs: ['out'],
      *process() {
        for (let i = 0; i < total; i++) {
          produced++;
          if (produced - consumed > maxInFlight) maxInFlight = produced - consumed;
          yield { payload: i };
        }
      },
    }) as unknown as Plugin<never>;
    const slow = processor('SLOW_SINK', async (m) => {
      await Promise.resolve();
      if (m.payload !== consumed) ordered = false;
      consumed++;
    });
    const h = harness([source, slow], { channelCapacity: 16, freezeMessages: false });
    const id = await h.run({
      workflowId: 'million',
      nodes: [
        { nodeId: 'src', type: 'MILLION' },
        { nodeId: 'a', type: 'TRANSFORM' },
        { nodeId: 'b', type: 'TRANSFORM' },
        { nodeId: 'sink', type: 'SLOW_SINK' },
      ],
      edges: [
        { source: 'src', target: 'a' },
        { source: 'a', target: 'b' },
        { source: 'b', target: 'sink' },
      ],
    });
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    expect(consumed).toBe(total);
    expect(ordered).toBe(true);
    // Three channels of 16, plus at most one message in the hands of each of the four stages.
    expect(maxInFlight).toBeLessThanOrEqual(3 * 16 + 4);
  }, 60_000);

  it('a fan-out paces to its slowest child', async () => {
    let fastSeen = 0;
    let slowSeen = 0;
    let maxLead = 0;
    const fast = processor('FAST', () => {
      fastSeen++;
      maxLead = Math.max(maxLead, fastSeen - slowSeen);
    });
    const slow = processor('SLOWER', async () => {
      for (let i = 0; i < 5; i++) await Promise.resolve();
      slowSeen++;
    });
    const h = harness([fast, slow], { channelCapacity: 8 });
    const id = await h.run(
      {
        workflowId: 'fan',
        nodes: [
          { nodeId: 't', type: 'API_TRIGGER' },
          { nodeId: 's', type: 'SPLIT', config: { path: 'payload.n' } },
          { nodeId: 'f', type: 'FAST' },
          { nodeId: 'w', type: 'SLOWER' },
        ],
        edges: [
          { source: 't', target: 's' },
          { source: 's', target: 'f' },
          { source: 's', target: 'w' },
        ],
      },
      { n: Array.from({ length: 2000 }, (_, i) => i) },
    );
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    expect([fastSeen, slowSeen]).toEqual([2000, 2000]);
    expect(maxLead).toBeLessThanOrEqual(8 + 2);
  });

  it('edgeBuffer drops instead of pacing, counting the drops (DROP_NEWEST keeps the first ones)', async () => {
    const rec = recorder();
    const gateSink = processor('STALL', async (m, ctx) => {
      await ctx.sleep(10);
      return [{ payload: m.payload }];
    });
    const h = harness([gateSink, rec.plugin]);
    const id = await h.run(
      {
        workflowId: 'drop',
        nodes: [
          { nodeId: 't', type: 'API_TRIGGER' },
          { nodeId: 's', type: 'SPLIT', config: { path: 'payload.n' } },
          { nodeId: 'x', type: 'STALL', config: { engine: { edgeBuffer: { size: 3, overflow: 'DROP_NEWEST' } } } },
          { nodeId: 'out', type: 'REC' },
        ],
        edges: [
          { source: 't', target: 's' },
          { source: 's', target: 'x' },
          { source: 'x', target: 'out' },
        ],
      },
      { n: Array.from({ length: 10 }, (_, i) => i) },
    );
    await h.clock.advanceAsync(1000);
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    // x took the first message into its plugin, buffered three more and dropped the other six.
    expect(rec.seen).toEqual([0, 1, 2, 3]);
    expect(h.engine.getRun(id).nodes.find((n) => n.nodeId === 'x')?.counts.dropped).toBe(6);
    expect(h.engine.edgeDropCounts().get('drop/x')).toBe(6);
  });
});

/** A random DAG: node i may feed any node j > i; every source gets the trigger, every sink a recorder. */
const dagArb = fc
  .integer({ min: 1, max: 50 })
  .chain((n) =>
    fc.tuple(fc.constant(n), fc.array(fc.tuple(fc.nat(n - 1), fc.nat(n - 1)), { maxLength: n * 2 }), fc.subarray(Array.from({ length: n }, (_, i) => i))),
  );

function buildDag(n: number, pairs: Array<[number, number]>, failing: number[]) {
  const edges = new Set<string>();
  for (const [a, b] of pairs) if (a < b) edges.add(`${a}>${b}`);
  const hasParent = new Set([...edges].map((e) => Number(e.split('>')[1])));
  const hasChild = new Set([...edges].map((e) => Number(e.split('>')[0])));
  const nodes = [{ nodeId: 'trigger', type: 'SPLIT_TRIGGER' }];
  const list: Array<{ source: string; target: string }> = [];
  for (let i = 0; i < n; i++) {
    nodes.push({ nodeId: `p${i}`, type: failing.includes(i) ? 'FAILS' : 'TRANSFORM' });
    if (!hasParent.has(i)) list.push({ source: 'trigger', target: `p${i}` });
    if (!hasChild.has(i)) {
      nodes.push({ nodeId: `sink${i}`, type: 'SINK' });
      list.push({ source: `p${i}`, target: `sink${i}` });
    }
  }
  for (const e of edges) {
    const [a, b] = e.split('>');
    list.push({ source: `p${a}`, target: `p${b}` });
  }
  return { workflowId: 'dag', nodes, edges: list };
}

describe('ENG-01/ENG-06 random DAGs (property)', () => {
  const MESSAGES = 5;
  const trigger = definePlugin({
    type: 'SPLIT_TRIGGER',
    kind: 'trigger',
    title: '',
    description: '',
    configSchema: z.object({}),
    defaultConfig: {},
    outputs: ['out'],
    process: () => Array.from({ length: MESSAGES }, (_, i) => ({ payload: { i } })),
  }) as unknown as Plugin<never>;
  const fails = processor('FAILS', () => {
    throw new Error('planned failure');
  });

  it('every message reaches every sink exactly once per path, FIFO per edge, run SUCCESS', async () => {
    await fc.assert(
      fc.asyncProperty(dagArb, async ([n, pairs]) => {
        const seen = new Map<string, number[]>();
        const sink = processor('SINK', (m, ctx) => {
          const list = seen.get(ctx.nodeId) ?? [];
          list.push((m.payload as { i: number }).i);
          seen.set(ctx.nodeId, list);
        });
        const sinkTerminal = { ...(sink as object), kind: 'terminal', outputs: [] } as unknown as Plugin<never>;
        const h = harness([trigger, sinkTerminal, fails], { channelCapacity: 2 });
        const def = buildDag(n, pairs, []);
        const id = await h.run(def);
        expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
        const paths = countPaths(def);
        for (const [sinkId, count] of paths) {
          const got = seen.get(sinkId) ?? [];
          expect(got.length).toBe(count * MESSAGES);
          if (count === 1) expect(got).toEqual(Array.from({ length: MESSAGES }, (_, i) => i));
        }
      }),
      { numRuns: 40 },
    );
  });

  it('with failing nodes, only they end FAILURE and their descendants UPSTREAM_FAILED', async () => {
    await fc.assert(
      fc.asyncProperty(dagArb, async ([n, pairs, failing]) => {
        const sink = { ...(recorder('SINK').plugin as object) } as unknown as Plugin<never>;
        const h = harness([trigger, sink, fails]);
        const def = buildDag(n, pairs, failing);
        const id = await h.run(def);
        const status = await h.engine.waitForRun(id);
        const statuses = h.statuses(id);
        const below = descendants(
          def,
          failing.map((i) => `p${i}`),
        );
        for (const [nodeId, s] of Object.entries(statuses)) {
          if (failing.map((i) => `p${i}`).includes(nodeId)) expect(['FAILURE', 'CANCELLED', 'UPSTREAM_FAILED']).toContain(s);
          else if (below.has(nodeId)) expect(['UPSTREAM_FAILED', 'CANCELLED']).toContain(s);
          else expect(['SUCCESS', 'CANCELLED']).toContain(s);
          expect(s === 'FAILURE' ? failing.map((i) => `p${i}`).includes(nodeId) : true).toBe(true);
        }
        expect(status).toBe(failing.length ? 'FAILURE' : 'SUCCESS');
      }),
      { numRuns: 40 },
    );
  });
});

function countPaths(def: { nodes: Array<{ nodeId: string }>; edges: Array<{ source: string; target: string }> }): Map<string, number> {
  const memo = new Map<string, number>();
  const parents = new Map<string, string[]>();
  for (const e of def.edges) parents.set(e.target, [...(parents.get(e.target) ?? []), e.source]);
  const paths = (id: string): number => {
    if (id === 'trigger') return 1;
    if (!memo.has(id))
      memo.set(
        id,
        (parents.get(id) ?? []).reduce((sum, p) => sum + paths(p), 0),
      );
    return memo.get(id)!;
  };
  return new Map(def.nodes.filter((n) => n.nodeId.startsWith('sink')).map((n) => [n.nodeId, paths(n.nodeId)]));
}

function descendants(def: { edges: Array<{ source: string; target: string }> }, from: string[]): Set<string> {
  const out = new Set<string>();
  const stack = [...from];
  while (stack.length) {
    const id = stack.pop()!;
    for (const e of def.edges)
      if (e.source === id && !out.has(e.target)) {
        out.add(e.target);
        stack.push(e.target);
      }
  }
  return out;
}
