import { describe, expect, it } from 'vitest';
import type { ControlResult } from '../../shared/api/control.schema';
import { EngineError } from '../engine-errors';
import type { WorkflowDefinitionInput } from '../../shared/workflow/definition.schema';
import type { EngineOptions } from '../engine';
import { gate, harness, processor, recorder } from '../test-support/engine-harness';

/** Processors that count their calls per node id and add their node id to the payload's trail. */
function counting() {
  const calls = new Map<string, number>();
  const plugin = processor('STEP', (m, ctx) => {
    calls.set(ctx.nodeId, (calls.get(ctx.nodeId) ?? 0) + 1);
    const trail = ((m.payload as { trail?: string[] }).trail ?? []).concat(ctx.nodeId);
    return [{ payload: { ...(m.payload as object), trail } }];
  });
  return { calls, plugin, reset: () => calls.clear() };
}

/** t → a → b → c (REC);  t → z → zz (REC2), an independent branch. */
const branches: WorkflowDefinitionInput = {
  workflowId: 'branches',
  nodes: ['a', 'b', 'z']
    .map((nodeId) => ({ nodeId, type: 'STEP' }))
    .concat([
      { nodeId: 't', type: 'API_TRIGGER' },
      { nodeId: 'c', type: 'REC' },
      { nodeId: 'zz', type: 'REC2' },
    ]),
  edges: [
    { source: 't', target: 'a' },
    { source: 'a', target: 'b' },
    { source: 'b', target: 'c' },
    { source: 't', target: 'z' },
    { source: 'z', target: 'zz' },
  ],
};

function setup(options: EngineOptions = {}, extra: Parameters<typeof harness>[0] = []) {
  const steps = counting();
  const rec = recorder();
  const rec2 = recorder('REC2');
  const h = harness([steps.plugin, rec.plugin, rec2.plugin, ...extra], options);
  return { h, steps, rec, rec2 };
}

async function command(h: ReturnType<typeof harness>, id: string, cmd: Parameters<typeof h.engine.control.send>[1]): Promise<ControlResult> {
  return h.engine.control.send(id, cmd, 'ui:local');
}

async function refusal(promise: Promise<unknown>): Promise<EngineError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof EngineError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

describe('CTL-04 restart, restart-from-node and retry node', () => {
  it('restart-from-node re-runs only the node and its descendants, replaying the recorded output feeding them', async () => {
    const { h, steps, rec, rec2 } = setup();
    const first = await h.run(branches, { n: 1 });
    expect(await h.engine.waitForRun(first)).toBe('SUCCESS');
    expect(Object.fromEntries(steps.calls)).toEqual({ a: 1, b: 1, z: 1 });
    steps.reset();
    const answer = await command(h, first, { type: 'RestartFromNode', nodeId: 'b' });
    expect(answer).toMatchObject({ command: 'RestartFromNode', queued: false });
    const second = answer.newExecutionId!;
    expect(await h.engine.waitForRun(second)).toBe('SUCCESS');
    expect(Object.fromEntries(steps.calls)).toEqual({ b: 1 }); // a replayed, z and the trigger left alone
    expect(rec.seen).toEqual([
      { n: 1, trail: ['a', 'b'] },
      { n: 1, trail: ['a', 'b'] },
    ]);
    expect(rec2.seen).toHaveLength(1);
    const run = h.engine.getRun(second);
    expect(run.nodes.map((n) => n.nodeId).sort()).toEqual(['a', 'b', 'c']);
    expect(run.definitionVersion).toBe(h.engine.getRun(first).definitionVersion);
    // The new run recorded its replayed output again, so it can be restarted from the same place.
    steps.reset();
    const third = (await command(h, second, { type: 'RestartFromNode', nodeId: 'b' })).newExecutionId!;
    expect(await h.engine.waitForRun(third)).toBe('SUCCESS');
    expect(Object.fromEntries(steps.calls)).toEqual({ b: 1 });
  });

  it('replays every parent feeding a join from outside the restarted part', async () => {
    const { h, steps, rec } = setup();
    const join: WorkflowDefinitionInput = {
      workflowId: 'join',
      nodes: [
        { nodeId: 't', type: 'API_TRIGGER' },
        { nodeId: 'a', type: 'STEP' },
        { nodeId: 'b', type: 'STEP' },
        { nodeId: 'j', type: 'STEP' },
        { nodeId: 'c', type: 'REC' },
      ],
      edges: [
        { source: 't', target: 'a' },
        { source: 't', target: 'b' },
        { source: 'a', target: 'j' },
        { source: 'b', target: 'j' },
        { source: 'j', target: 'c' },
      ],
    };
    const first = await h.run(join, {});
    await h.engine.waitForRun(first);
    steps.reset();
    rec.seen.length = 0;
    const second = (await command(h, first, { type: 'RestartFromNode', nodeId: 'a' })).newExecutionId!;
    expect(await h.engine.waitForRun(second)).toBe('SUCCESS');
    expect(Object.fromEntries(steps.calls)).toEqual({ a: 1, j: 2 }); // b replayed into the join; t replayed into a
    expect(rec.seen).toHaveLength(2);
    expect(
      h.engine
        .getRun(second)
        .nodes.map((n) => n.nodeId)
        .sort(),
    ).toEqual(['a', 'b', 'c', 'j', 't']);
  });

  it('restart runs the archived version with the same payload, even after the workflow changed', async () => {
    const { h, steps, rec } = setup();
    const first = await h.run(branches, { n: 7 });
    await h.engine.waitForRun(first);
    await h.engine.saveWorkflow('test', { ...branches, description: 'edited' });
    steps.reset();
    const second = (await command(h, first, { type: 'Restart' })).newExecutionId!;
    expect(await h.engine.waitForRun(second)).toBe('SUCCESS');
    expect(Object.fromEntries(steps.calls)).toEqual({ a: 1, b: 1, z: 1 });
    expect(rec.seen.at(-1)).toEqual({ n: 7, trail: ['a', 'b'] });
    expect(h.engine.getRun(second).definitionVersion).toBe(h.engine.getRun(first).definitionVersion);
  });

  it('retry node re-runs a node that ended FAILURE (and its descendants); other statuses are refused', async () => {
    let fail = true;
    const flaky = processor('FLAKY', (m) => {
      if (fail) throw new Error('down');
      return [{ payload: m.payload }];
    });
    const { h, steps, rec } = setup({}, [flaky]);
    const def: WorkflowDefinitionInput = {
      workflowId: 'retry',
      nodes: [
        { nodeId: 't', type: 'API_TRIGGER' },
        { nodeId: 'a', type: 'STEP' },
        { nodeId: 'f', type: 'FLAKY' },
        { nodeId: 'c', type: 'REC' },
      ],
      edges: [
        { source: 't', target: 'a' },
        { source: 'a', target: 'f' },
        { source: 'f', target: 'c' },
      ],
    };
    const first = await h.run(def, { k: 1 });
    expect(await h.engine.waitForRun(first)).toBe('FAILURE');
    const notFailed = await refusal(command(h, first, { type: 'RetryNode', nodeId: 'a' }));
    expect(notFailed).toMatchObject({ code: 'CONFLICT', message: 'node "a" ended SUCCESS; only a node that ended FAILURE or TIMED_OUT can be retried' });
    fail = false;
    steps.reset();
    const second = (await command(h, first, { type: 'RetryNode', nodeId: 'f' })).newExecutionId!;
    expect(await h.engine.waitForRun(second)).toBe('SUCCESS');
    expect(steps.calls.size).toBe(0); // a was replayed, not called
    expect(rec.seen).toEqual([{ k: 1, trail: ['a'] }]);
  });

  it('refuses a restart-from-node whose parent passed its checkpoint caps, never replaying part of it', async () => {
    const { h } = setup({ control: { maxMessagesPerNode: 3 } });
    const def: WorkflowDefinitionInput = {
      workflowId: 'caps',
      nodes: [
        { nodeId: 't', type: 'API_TRIGGER' },
        { nodeId: 's', type: 'SPLIT', config: { path: 'payload.items' } },
        { nodeId: 'b', type: 'STEP' },
        { nodeId: 'c', type: 'REC' },
      ],
      edges: [
        { source: 't', target: 's' },
        { source: 's', target: 'b' },
        { source: 'b', target: 'c' },
      ],
    };
    const first = await h.run(def, { items: [1, 2, 3, 4, 5].map((i) => ({ i })) });
    await h.engine.waitForRun(first);
    const error = await refusal(command(h, first, { type: 'RestartFromNode', nodeId: 'b' }));
    expect(error.code).toBe('CONFLICT');
    expect(error.message).toContain('parent "s" passed its checkpoint cap (more than 3 messages)');
    const { entries } = await h.engine.control.audit({ executionId: first, offset: 0, limit: 1 });
    expect(entries[0]).toMatchObject({ type: 'CONTROL_REJECTED', status: expect.stringMatching(/^RestartFromNode: parent "s" passed its checkpoint cap/) });
    expect((await command(h, first, { type: 'RestartFromNode', nodeId: 's' })).newExecutionId).toBeDefined(); // from the capped node itself is fine
  });

  it('on a live run only parents that finished are replayed', async () => {
    const release = gate();
    const hold = processor('HOLD', async (m) => (await release.opened, [{ payload: m.payload }]));
    const { h, steps, rec } = setup({}, [hold]);
    const def: WorkflowDefinitionInput = {
      workflowId: 'live',
      nodes: [
        { nodeId: 't', type: 'API_TRIGGER' },
        { nodeId: 'a', type: 'STEP' },
        { nodeId: 'h', type: 'HOLD' },
        { nodeId: 'c', type: 'REC' },
      ],
      edges: [
        { source: 't', target: 'a' },
        { source: 'a', target: 'h' },
        { source: 'h', target: 'c' },
      ],
    };
    const first = await h.run(def, {});
    await h.settle();
    const early = await refusal(command(h, first, { type: 'RestartFromNode', nodeId: 'c' }));
    expect(early.message).toBe('parent "h" has not finished yet (no end marker): wait for it, or restart from "h"');
    steps.reset();
    const second = (await command(h, first, { type: 'RestartFromNode', nodeId: 'h' })).newExecutionId!; // a has finished
    release.open();
    expect(await h.engine.waitForRun(second)).toBe('SUCCESS');
    expect(await h.engine.waitForRun(first)).toBe('SUCCESS');
    expect(steps.calls.size).toBe(0);
    expect(rec.seen).toHaveLength(2);
  });

  it('without output recording a run restarts whole, but not from a node; a run beyond the archive is refused', async () => {
    const { h } = setup({ control: { recordOutputs: false, retainedRuns: 1 } });
    const first = await h.run(branches, {});
    await h.engine.waitForRun(first);
    const error = await refusal(command(h, first, { type: 'RestartFromNode', nodeId: 'b' }));
    expect(error.message).toContain('recorded no node outputs');
    const second = (await command(h, first, { type: 'Restart' })).newExecutionId!;
    await h.engine.waitForRun(second); // the second finished run pushes the first out of the archive (1 kept)
    const gone = await refusal(command(h, first, { type: 'Restart' }));
    expect(gone).toMatchObject({ code: 'CONFLICT' });
    expect(gone.message).toContain('is not in the archive');
  });

  it('takes its slot through the scheduler: a restart waits QUEUED when the cap is full', async () => {
    const release = gate();
    const hold = processor('HOLD', async (m) => (await release.opened, [{ payload: m.payload }]));
    const h = harness([hold, recorder().plugin], { scheduler: { limits: { maxConcurrent: 1 } } });
    const def: WorkflowDefinitionInput = {
      workflowId: 'slot',
      nodes: [
        { nodeId: 't', type: 'API_TRIGGER' },
        { nodeId: 'x', type: 'HOLD' },
        { nodeId: 'out', type: 'REC' },
      ],
      edges: [
        { source: 't', target: 'x' },
        { source: 'x', target: 'out' },
      ],
    };
    const first = await h.run(def, {});
    await h.settle();
    const answer = await command(h, first, { type: 'Restart' }); // restarting a live run: the old one keeps its slot
    expect(answer.queued).toBe(true);
    expect(h.engine.getRun(answer.newExecutionId!).status).toBe('QUEUED');
    release.open();
    expect(await h.engine.waitForRun(first)).toBe('SUCCESS');
    expect(await h.engine.waitForRun(answer.newExecutionId!)).toBe('SUCCESS');
  });
});
