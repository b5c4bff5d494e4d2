import { describe, expect, it } from 'vitest';
import { harness, processor, recorder } from '../test-support/engine-harness';

const boom = processor('BOOM', () => {
  throw new Error('boom');
});

function join(trigger: string, failing: boolean) {
  return {
    workflowId: `join-${trigger}-${failing}`,
    nodes: [
      { nodeId: 't', type: 'API_TRIGGER' },
      { nodeId: 'a', type: 'TRANSFORM', config: { set: { from: 'a' } } },
      { nodeId: 'b', type: failing ? 'BOOM' : 'TRANSFORM', config: { set: { from: 'b' } } },
      { nodeId: 'j', type: 'TRANSFORM', config: { engine: { trigger } } },
      { nodeId: 'out', type: 'REC' },
    ],
    edges: [
      { source: 't', target: 'a' },
      { source: 't', target: 'b' },
      { source: 'a', target: 'j' },
      { source: 'b', target: 'j' },
      { source: 'j', target: 'out' },
    ],
  };
}

describe('ENG-03 join rules', () => {
  it('a child reached by two ports of one parent ends once that parent ends, also when neither port sent anything', async () => {
    const h = harness([recorder().plugin]);
    const twice = {
      workflowId: 'two-ports',
      nodes: [
        { nodeId: 't', type: 'API_TRIGGER' },
        {
          nodeId: 'r',
          type: 'ROUTER',
          config: {
            routes: [
              { port: 'left', when: 'has(payload.x) && payload.x > 1' },
              { port: 'right', when: 'has(payload.x) && payload.x < 0' },
            ],
            mode: 'first',
          },
        },
        { nodeId: 'j', type: 'TRANSFORM', config: { set: { joined: true } } },
        { nodeId: 'out', type: 'REC' },
      ],
      edges: [
        { source: 't', target: 'r' },
        { source: 'r', target: 'j', sourcePort: 'left' },
        { source: 'r', target: 'j', sourcePort: 'right' },
        { source: 'j', target: 'out' },
      ],
    };
    const id = await h.run(twice);
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    expect(h.statuses(id)).toMatchObject({ r: 'SUCCESS', j: 'SUCCESS', out: 'SUCCESS' });
  });

  it('ALL_SUCCESS (default) merges both parents, and ends UPSTREAM_FAILED when one fails', async () => {
    const rec = recorder();
    const h = harness([boom, rec.plugin]);
    const ok = await h.run(join('ALL_SUCCESS', false));
    expect(await h.engine.waitForRun(ok)).toBe('SUCCESS');
    expect(rec.seen.map((p) => (p as { from: string }).from).sort()).toEqual(['a', 'b']);
    const bad = await h.run(join('ALL_SUCCESS', true));
    expect(await h.engine.waitForRun(bad)).toBe('FAILURE');
    expect(h.statuses(bad)).toMatchObject({ b: 'FAILURE', j: 'UPSTREAM_FAILED', out: 'UPSTREAM_FAILED' });
  });

  it('ALL_DONE processes whatever arrives and ends normally once every parent ended', async () => {
    const rec = recorder();
    const h = harness([boom, rec.plugin]);
    const id = await h.run(join('ALL_DONE', true));
    await h.engine.waitForRun(id);
    expect(h.statuses(id)).toMatchObject({ a: 'SUCCESS', b: 'FAILURE', j: 'SUCCESS', out: 'SUCCESS' });
    expect(rec.seen).toEqual([{ from: 'a' }]);
  });

  it('ONE_SUCCESS ends UPSTREAM_FAILED only if no parent succeeded', async () => {
    const h = harness([boom, recorder().plugin]);
    const one = await h.run(join('ONE_SUCCESS', true));
    await h.engine.waitForRun(one);
    expect(h.statuses(one)['j']).toBe('SUCCESS');
    const none = await h.run({
      workflowId: 'none',
      nodes: [
        { nodeId: 't', type: 'API_TRIGGER' },
        { nodeId: 'b1', type: 'BOOM' },
        { nodeId: 'b2', type: 'BOOM' },
        { nodeId: 'j', type: 'TRANSFORM', config: { engine: { trigger: 'ONE_SUCCESS' } } },
        { nodeId: 'out', type: 'REC' },
      ],
      edges: [
        { source: 't', target: 'b1' },
        { source: 't', target: 'b2' },
        { source: 'b1', target: 'j' },
        { source: 'b2', target: 'j' },
        { source: 'j', target: 'out' },
      ],
    });
    await h.engine.waitForRun(none);
    expect(h.statuses(none)['j']).toBe('UPSTREAM_FAILED');
  });
});

describe('ENG-07 sub-workflows', () => {
  const child = {
    workflowId: 'child',
    nodes: [
      { nodeId: 'in', type: 'API_TRIGGER' },
      { nodeId: 'double', type: 'TRANSFORM', config: { set: { doubled: '${payload.n:int}' } } },
      { nodeId: 'r', type: 'RESULT_TERMINAL' },
    ],
    edges: [
      { source: 'in', target: 'double' },
      { source: 'double', target: 'r' },
    ],
  };
  const parent = (childId = 'child') => ({
    workflowId: `parent-${childId}`,
    nodes: [
      { nodeId: 't', type: 'API_TRIGGER' },
      { nodeId: 'sub', type: 'SUB_WORKFLOW', config: { workflowId: childId } },
      { nodeId: 'out', type: 'REC' },
    ],
    edges: [
      { source: 't', target: 'sub' },
      { source: 'sub', target: 'out' },
    ],
  });

  it('runs the child as its own run and emits {executionId, results[]}', async () => {
    const rec = recorder();
    const h = harness([rec.plugin]);
    await h.engine.saveWorkflow('test', child);
    const id = await h.run(parent(), { n: 21 });
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    const out = rec.seen[0] as { executionId: string; results: Array<{ nodeId: string; payload: Record<string, unknown> }> };
    expect(out.executionId).not.toBe(id);
    expect(out.results).toEqual([{ nodeId: 'r', payload: { n: 21, 'yukta.depth': 1, 'yukta.parentExecutionId': id, doubled: 21 } }]);
    const childRun = h.engine.getRun(out.executionId);
    expect(childRun).toMatchObject({ workflowId: 'child', status: 'SUCCESS' });
  });

  it('a failing child fails the node (so the parent policy applies)', async () => {
    const h = harness([boom, recorder().plugin]);
    await h.engine.saveWorkflow('test', {
      workflowId: 'bad-child',
      nodes: [
        { nodeId: 'in', type: 'API_TRIGGER' },
        { nodeId: 'x', type: 'BOOM' },
        { nodeId: 'r', type: 'RESULT_TERMINAL' },
      ],
      edges: [
        { source: 'in', target: 'x' },
        { source: 'x', target: 'r' },
      ],
    });
    const id = await h.run(parent('bad-child'));
    expect(await h.engine.waitForRun(id)).toBe('FAILURE');
    expect(h.engine.getRun(id).nodes.find((n) => n.nodeId === 'sub')?.error?.message).toContain('ended FAILURE');
  });

  it('limits nesting to 5 levels', async () => {
    const h = harness([recorder().plugin]);
    // A workflow that calls itself recurses until the depth limit refuses.
    const self = {
      workflowId: 'self',
      nodes: [
        { nodeId: 't', type: 'API_TRIGGER' },
        { nodeId: 'sub', type: 'SUB_WORKFLOW', config: { workflowId: 'self' } },
        { nodeId: 'r', type: 'RESULT_TERMINAL' },
      ],
      edges: [
        { source: 't', target: 'sub' },
        { source: 'sub', target: 'r' },
      ],
    };
    const id = await h.run(self);
    expect(await h.engine.waitForRun(id)).toBe('FAILURE');
    const depths = h.engine.listRuns({ limit: 100 }).length;
    expect(depths).toBe(6); // depth 0 … 5; the sixth level is refused
    expect(JSON.stringify(h.engine.getRun(id).error)).toContain('ended FAILURE');
  });

  it('cancelling the parent cancels the child', async () => {
    const hang = processor('HANG', (_m, ctx) => new Promise<never>((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason))));
    const h = harness([hang, recorder().plugin]);
    await h.engine.saveWorkflow('test', {
      workflowId: 'slow-child',
      nodes: [
        { nodeId: 'in', type: 'API_TRIGGER' },
        { nodeId: 'h', type: 'HANG' },
        { nodeId: 'r', type: 'RESULT_TERMINAL' },
      ],
      edges: [
        { source: 'in', target: 'h' },
        { source: 'h', target: 'r' },
      ],
    });
    const id = await h.run(parent('slow-child'));
    await h.settle();
    const childId = h.engine.listRuns({ workflowId: 'slow-child', limit: 1 })[0]!.executionId;
    h.engine.cancelRun(id);
    expect(await h.engine.waitForRun(id)).toBe('CANCELLED');
    expect(await h.engine.waitForRun(childId)).toBe('CANCELLED');
  });
});
