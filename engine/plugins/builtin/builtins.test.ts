import { describe, expect, it } from 'vitest';
import { chain, harness, recorder } from '../../test-support/engine-harness';

describe('EXT-01 built-in node types', () => {
  it('MANUAL_TRIGGER starts with its stored payload; fields given at start win', async () => {
    const rec = recorder();
    const h = harness([rec.plugin]);
    const def = {
      workflowId: 'm',
      nodes: [
        { nodeId: 't', type: 'MANUAL_TRIGGER', config: { payload: { a: 1, b: 2 } } },
        { nodeId: 'out', type: 'REC' },
      ],
      edges: [{ source: 't', target: 'out' }],
    };
    await h.engine.waitForRun(await h.run(def, { b: 3 }));
    expect(rec.seen).toEqual([{ a: 1, b: 3 }]);
  });

  it('ROUTER sends each message to the first route whose CEL condition holds, else to default', async () => {
    const big = recorder('BIG');
    const small = recorder('SMALL');
    const other = recorder('OTHER');
    const h = harness([big.plugin, small.plugin, other.plugin]);
    const def = {
      workflowId: 'router',
      nodes: [
        { nodeId: 't', type: 'API_TRIGGER' },
        { nodeId: 's', type: 'SPLIT', config: { path: 'payload.orders' } },
        {
          nodeId: 'r',
          type: 'ROUTER',
          config: {
            routes: [
              { port: 'big', when: 'payload.amount > 100' },
              { port: 'small', when: 'payload.amount > 0' },
            ],
          },
        },
        { nodeId: 'b', type: 'BIG' },
        { nodeId: 'sm', type: 'SMALL' },
        { nodeId: 'o', type: 'OTHER' },
      ],
      edges: [
        { source: 't', target: 's' },
        { source: 's', target: 'r' },
        { source: 'r', target: 'b', sourcePort: 'big' },
        { source: 'r', target: 'sm', sourcePort: 'small' },
        { source: 'r', target: 'o', sourcePort: 'default' },
      ],
    };
    const id = await h.run(def, { orders: [{ amount: 150 }, { amount: 5 }, { amount: 0 }, { amount: 101.5 }] });
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    expect([big.seen, small.seen, other.seen]).toEqual([[{ amount: 150 }, { amount: 101.5 }], [{ amount: 5 }], [{ amount: 0 }]]);
  });

  it('ROUTER: a condition that fails is bad input naming the node and the expression; bad syntax is refused at save', async () => {
    const h = harness([recorder().plugin]);
    const routerThenRec = {
      workflowId: 'rbad',
      nodes: [
        { nodeId: 't', type: 'API_TRIGGER' },
        { nodeId: 'r', type: 'ROUTER', config: { routes: [{ port: 'x', when: 'payload.missing > 1' }] } },
        { nodeId: 'out', type: 'REC' },
      ],
      edges: [
        { source: 't', target: 'r' },
        { source: 'r', target: 'out', sourcePort: 'x' },
      ],
    };
    const id = await h.run(routerThenRec, {});
    expect(await h.engine.waitForRun(id)).toBe('FAILURE');
    const error = h.engine.getRun(id).nodes.find((n) => n.nodeId === 'r')?.error;
    expect(error?.name).toBe('BadInputError');
    expect(error?.message).toContain('node "r": condition `payload.missing > 1`');
    const refused = h.engine.validate(chain('rsyntax', [{ nodeId: 'r', type: 'ROUTER', config: { routes: [{ port: 'x', when: 'payload.a >' }] } }]));
    expect(refused.issues.find((i) => i.code === 'DEF-02/config')).toMatchObject({ nodeId: 'r', path: 'nodes.1.config.routes.0.when' });
  });

  it('ROUTER ports come from its config, so an edge from an undeclared port is refused', () => {
    const h = harness([recorder().plugin]);
    const def = {
      workflowId: 'p',
      nodes: [
        { nodeId: 't', type: 'API_TRIGGER' },
        { nodeId: 'r', type: 'ROUTER', config: { routes: [{ port: 'yes', when: 'true' }] } },
        { nodeId: 'o', type: 'REC' },
      ],
      edges: [
        { source: 't', target: 'r' },
        { source: 'r', target: 'o', sourcePort: 'no' },
      ],
    };
    expect(h.engine.validate(def).issues.map((i) => i.code)).toContain('DEF-02/unknown-port');
    expect(h.engine.validate({ ...def, edges: [def.edges[0]!, { source: 'r', target: 'o', sourcePort: 'yes' }] }).valid).toBe(true);
  });

  it('DELAY waits on the engine clock (virtual time)', async () => {
    const rec = recorder();
    const h = harness([rec.plugin]);
    const id = await h.run(chain('delay', [{ nodeId: 'd', type: 'DELAY', config: { ms: '${payload.wait:int}' } }]), { wait: 45_000 });
    await h.clock.advanceAsync(44_999);
    expect(rec.seen).toEqual([]);
    await h.clock.advanceAsync(1);
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    expect(rec.seen).toEqual([{ wait: 45_000 }]);
  });

  it('SPLIT then AGGREGATE (split mode) puts the pieces back in order', async () => {
    const rec = recorder();
    const h = harness([rec.plugin]);
    const id = await h.run(
      chain('sa', [
        { nodeId: 's', type: 'SPLIT', config: { path: 'payload.items' } },
        { nodeId: 'x', type: 'TRANSFORM', config: { set: { seen: true } } },
        { nodeId: 'a', type: 'AGGREGATE', config: { mode: 'split' } },
      ]),
      { items: [{ v: 1 }, { v: 2 }, { v: 3 }] },
    );
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    expect(rec.seen).toEqual([
      {
        items: [
          { v: 1, seen: true },
          { v: 2, seen: true },
          { v: 3, seen: true },
        ],
      },
    ]);
  });

  it('AGGREGATE count mode emits every N and the rest at the end; SPLIT refuses a non-array', async () => {
    const rec = recorder();
    const h = harness([rec.plugin]);
    const id = await h.run(
      chain('agg', [
        { nodeId: 's', type: 'SPLIT', config: { path: 'payload.n' } },
        { nodeId: 'a', type: 'AGGREGATE', config: { mode: 'count', size: 2 } },
      ]),
      { n: [1, 2, 3, 4, 5] },
    );
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    expect(rec.seen).toEqual([{ items: [1, 2] }, { items: [3, 4] }, { items: [5] }]);
    const bad = await h.run(chain('agg2', [{ nodeId: 's', type: 'SPLIT', config: { path: 'payload.n' } }]), { n: 'no' });
    expect(await h.engine.waitForRun(bad)).toBe('FAILURE');
    expect(h.engine.getRun(bad).error?.message).toContain('payload.n is not an array');
  });

  it('CONSOLE_TERMINAL logs and RESULT_TERMINAL records every message', async () => {
    const h = harness();
    const def = {
      workflowId: 'terms',
      nodes: [
        { nodeId: 't', type: 'API_TRIGGER' },
        { nodeId: 'c', type: 'CONSOLE_TERMINAL', config: { prefix: '> ', format: 'json' } },
        { nodeId: 'r', type: 'RESULT_TERMINAL' },
      ],
      edges: [
        { source: 't', target: 'c' },
        { source: 't', target: 'r' },
      ],
    };
    const id = await h.run(def, { hi: 1 });
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    expect(h.events.some((e) => e.type === 'LOG' && e.nodeId === 'c' && e.text === '> {"hi":1}')).toBe(true);
    expect(
      h.engine
        .getRun(id)
        .results.map((r) => r.nodeId)
        .sort(),
    ).toEqual(['c', 'r']);
  });
});
