import { describe, expect, it } from 'vitest';
import { EngineError } from '../engine-errors';
import type { WorkflowDefinitionInput } from '../../shared/workflow/definition.schema';
import { waitForSignalPlugin } from '../plugins/builtin/wait-for-signal/wait-for-signal.plugin';
import { gate, harness, processor, recorder } from '../test-support/engine-harness';

/** t → approve (WAIT_FOR_SIGNAL) → ok (REC); rejected → no (NO); timeout → late (LATE). */
function approvalFlow(workflowId: string, config: Record<string, unknown> = {}, hold = false): WorkflowDefinitionInput {
  const head = hold
    ? {
        nodes: [{ nodeId: 'h', type: 'HOLD', timeoutSeconds: 3600 }],
        edges: [
          { source: 't', target: 'h' },
          { source: 'h', target: 'approve' },
        ],
      }
    : { nodes: [], edges: [{ source: 't', target: 'approve' }] };
  return {
    workflowId,
    nodes: [
      ...head.nodes,
      { nodeId: 't', type: 'API_TRIGGER' },
      { nodeId: 'approve', type: 'WAIT_FOR_SIGNAL', config: { signal: 'manager', ...config } },
      { nodeId: 'ok', type: 'REC' },
      { nodeId: 'no', type: 'NO' },
      { nodeId: 'late', type: 'LATE' },
    ],
    edges: [
      ...head.edges,
      { source: 'approve', target: 'ok' },
      { source: 'approve', target: 'no', sourcePort: 'rejected' },
      { source: 'approve', target: 'late', sourcePort: 'timeout' },
    ],
  };
}

function setup() {
  const ok = recorder();
  const no = recorder('NO');
  const late = recorder('LATE');
  const metadata: Array<Record<string, string>> = [];
  const okWithMeta = {
    ...ok.plugin,
    process: (m: { payload: unknown; metadata: Record<string, string> }) => (metadata.push({ ...m.metadata }), ok.seen.push(m.payload), undefined),
  };
  const h = harness([okWithMeta as never, no.plugin, late.plugin]);
  return { h, ok, no, late, metadata };
}

async function refusal(promise: Promise<unknown>): Promise<EngineError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof EngineError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

describe('CTL-05 signals and approvals', () => {
  it('holds the message until APPROVE (ACCEPTED), tags it with signal.name/decision/data, and lists open approvals oldest first', async () => {
    const { h, ok, metadata } = setup();
    const first = await h.run(approvalFlow('a1'), { order: 1 });
    await h.clock.advanceAsync(1_000);
    const second = await h.run(approvalFlow('a2'), { order: 2 });
    await h.settle();
    const open = h.engine.control.approvals({});
    expect(open.map((a) => [a.executionId, a.nodeId, a.signal, a.payload])).toEqual([
      [first, 'approve', 'manager', { order: 1 }],
      [second, 'approve', 'manager', { order: 2 }],
    ]);
    expect(open[0]!.since).toBeLessThan(open[1]!.since);
    const answer = await h.engine.control.send(first, { type: 'Signal', nodeId: 'approve', decision: 'APPROVE', data: { by: 'ada' } }, 'key:ops');
    expect(answer.signal).toBe('ACCEPTED');
    expect(await h.engine.waitForRun(first)).toBe('SUCCESS');
    expect(ok.seen).toEqual([{ order: 1 }]);
    expect(metadata[0]).toMatchObject({ 'signal.name': 'manager', 'signal.decision': 'APPROVED', 'signal.data': '{"by":"ada"}', 'signal.actor': 'key:ops' });
    expect(h.engine.control.approvals({}).map((a) => a.executionId)).toEqual([second]);
    const states = h.events
      .filter((e) => e.type === 'APPROVAL' && e.executionId === first)
      .map((e) => (e.type === 'APPROVAL' ? `${e.state}${e.decision ? ` ${e.decision}` : ''}` : ''));
    expect(states).toEqual(['OPEN', 'CLOSED APPROVED']);
    await h.engine.control.send(second, { type: 'StopWorkflow', mode: 'KILL' }, 'test');
  });

  it('REJECT routes to "rejected" (onReject ROUTE) or fails the node (onReject FAIL)', async () => {
    const { h, no } = setup();
    const routed = await h.run(approvalFlow('r1'), { order: 3 });
    await h.settle();
    await h.engine.control.send(routed, { type: 'Signal', nodeId: 'approve', decision: 'REJECT' }, 'ui:local');
    expect(await h.engine.waitForRun(routed)).toBe('SUCCESS');
    expect(no.seen).toEqual([{ order: 3 }]);
    const failing = await h.run(approvalFlow('r2', { onReject: 'FAIL' }), {});
    await h.settle();
    await h.engine.control.send(failing, { type: 'Signal', nodeId: 'approve', decision: 'REJECT' }, 'ui:local');
    expect(await h.engine.waitForRun(failing)).toBe('FAILURE');
    expect(h.engine.getRun(failing).nodes.find((n) => n.nodeId === 'approve')!.error).toMatchObject({ code: 'SIGNAL_REJECTED' });
  });

  it('times out on the node clock (frozen while paused): FAIL by default, or ROUTE to "timeout"', async () => {
    const { h, late } = setup();
    const failing = await h.run(approvalFlow('t1', { timeoutSeconds: 10 }), {});
    await h.settle();
    await h.engine.control.send(failing, { type: 'PauseNode', nodeId: 'approve' }, 'ui:local');
    await h.clock.advanceAsync(60_000); // paused: the wait does not run out
    expect(h.engine.control.approvals({ executionId: failing })).toHaveLength(1);
    await h.engine.control.send(failing, { type: 'ResumeNode', nodeId: 'approve' }, 'ui:local');
    await h.clock.advanceAsync(10_000);
    expect(await h.engine.waitForRun(failing)).toBe('FAILURE');
    expect(h.engine.getRun(failing).nodes.find((n) => n.nodeId === 'approve')!.error).toMatchObject({ code: 'SIGNAL_TIMEOUT' });
    expect(h.engine.control.approvals({})).toEqual([]);
    const routed = await h.run(approvalFlow('t2', { timeoutSeconds: 10, onTimeout: 'ROUTE' }), { order: 9 });
    await h.clock.advanceAsync(10_000);
    expect(await h.engine.waitForRun(routed)).toBe('SUCCESS');
    expect(late.seen).toEqual([{ order: 9 }]);
  });

  it('the default idle timeout is the wait plus 30 s, so a full wait never times out as idle', async () => {
    expect(waitForSignalPlugin.defaultTimeoutMs!({ signal: 's', timeoutSeconds: 3600, onTimeout: 'FAIL', onReject: 'ROUTE' })).toBe(3_630_000);
    const { h } = setup();
    const id = await h.run(approvalFlow('idle'), {});
    await h.clock.advanceAsync(3_599_000);
    expect(h.engine.getRun(id).status).toBe('RUNNING');
    await h.engine.control.send(id, { type: 'Signal', nodeId: 'approve' }, 'ui:local');
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
  });

  it('a signal for a live node not waiting yet is QUEUED (ten minutes, at most 100) and used when the message arrives', async () => {
    const release = gate();
    const hold = processor('HOLD', async (m) => (await release.opened, [{ payload: m.payload }]));
    const { h, ok } = setup();
    h.engine.registry.register(hold);
    const id = await h.run(approvalFlow('queued', {}, true), { order: 5 });
    await h.settle();
    const answer = await h.engine.control.send(id, { type: 'Signal', nodeId: 'approve', data: 'early' }, 'ui:local');
    expect(answer.signal).toBe('QUEUED');
    release.open();
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    expect(ok.seen).toEqual([{ order: 5 }]);
    expect(h.events.some((e) => e.type === 'APPROVAL' && e.executionId === id && e.state === 'OPEN')).toBe(false); // never waited
  });

  it('queued signals expire after ten minutes and are capped at 100', async () => {
    const release = gate();
    const hold = processor('HOLD', async (m) => (await release.opened, [{ payload: m.payload }]));
    const { h } = setup();
    h.engine.registry.register(hold);
    const id = await h.run(approvalFlow('cap', {}, true), {});
    await h.settle();
    for (let i = 0; i < 100; i++) expect((await h.engine.control.send(id, { type: 'Signal', nodeId: 'approve' }, 'ui:local')).signal).toBe('QUEUED');
    const full = await refusal(h.engine.control.send(id, { type: 'Signal', nodeId: 'approve' }, 'ui:local'));
    expect(full).toMatchObject({ code: 'CONFLICT' });
    await h.clock.advanceAsync(10 * 60_000);
    expect(h.engine.control.signals.queuedSignals).toBe(0);
    release.open();
    await h.settle();
    expect(h.engine.control.approvals({ executionId: id })).toHaveLength(1); // the expired answers were not used
    await h.engine.control.send(id, { type: 'StopWorkflow', mode: 'KILL' }, 'test');
  });

  it('a signal for a node that is not registered is CONFLICT (409); for an unknown run NOT_FOUND, not recorded', async () => {
    const { h } = setup();
    const id = await h.run(approvalFlow('reg'), {});
    await h.settle();
    const notSignal = await refusal(h.engine.control.send(id, { type: 'Signal', nodeId: 't' }, 'ui:local'));
    expect(notSignal).toMatchObject({ code: 'CONFLICT', message: 'node "t" (API_TRIGGER) is not registered for signals' });
    const missing = await refusal(h.engine.control.send(id, { type: 'Signal', nodeId: 'nope' }, 'ui:local'));
    expect(missing.code).toBe('CONFLICT');
    await h.engine.control.send(id, { type: 'Signal', nodeId: 'approve' }, 'ui:local');
    await h.engine.waitForRun(id);
    const ended = await refusal(h.engine.control.send(id, { type: 'Signal', nodeId: 'approve' }, 'ui:local'));
    expect(ended).toMatchObject({ code: 'CONFLICT', message: `no signal node "approve" is registered: run "${id}" is SUCCESS` });
    const unknown = await refusal(h.engine.control.send('nobody', { type: 'Signal', nodeId: 'approve' }, 'ui:local'));
    expect(unknown.code).toBe('NOT_FOUND');
    expect((await h.engine.control.audit({ executionId: 'nobody', offset: 0, limit: 10 })).total).toBe(0);
  });

  it('records each answer as a checkpoint of pseudo node signal:<node>, so a wait for the same message reuses it', async () => {
    const { h } = setup();
    const id = await h.run(approvalFlow('ckpt'), {});
    await h.settle();
    const [open] = h.engine.control.approvals({ executionId: id });
    await h.engine.control.send(id, { type: 'Signal', nodeId: 'approve', data: 42 }, 'cli');
    await h.engine.waitForRun(id);
    const recorded = (await h.engine.control.archive.checkpoint(id, 'signal:approve'))!;
    expect(recorded.messages).toEqual([
      expect.objectContaining({ messageId: open!.messageId, payload: expect.objectContaining({ decision: 'APPROVED', data: 42, actor: 'cli' }) }),
    ]);
    // A resumed run waits for the same message id again: the recorded answer comes back at once.
    const site = { executionId: id, session: 'test', workflowId: 'ckpt', nodeId: 'approve' };
    const again = await h.engine.control.signals.wait(site, { signal: 'manager', messageId: open!.messageId, payload: {} }, new AbortController().signal);
    expect(again).toMatchObject({ decision: 'APPROVED', data: 42 });
  });
});
