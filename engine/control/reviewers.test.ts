import { describe, expect, it } from 'vitest';
import { EngineError } from '../engine-errors';
import { chain, gate, harness, processor, recorder } from '../test-support/engine-harness';
import { allow, refuse, type ControlRequest, type ControlReviewer } from './reviewers';

async function refusal(promise: Promise<unknown>): Promise<EngineError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof EngineError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

function holdSetup(reviewers: ControlReviewer[], limits = {}) {
  const release = gate();
  const hold = processor('HOLD', async (m) => (await release.opened, [{ payload: m.payload }]));
  const h = harness([hold, recorder().plugin], { control: { reviewers }, scheduler: { limits } });
  return { h, release, def: chain('rev', [{ nodeId: 'x', type: 'HOLD' }]) };
}

describe('CTL-06 reviewers', () => {
  it('run in order: the first refusal wins (403 FORBIDDEN, CONTROL_REJECTED); later reviewers are not asked', async () => {
    const seen: string[] = [];
    const reviewers: ControlReviewer[] = [
      { id: 'first', review: (r) => (seen.push(`first:${r.command.type}`), r.command.type === 'StopWorkflow' ? refuse('no stopping on Fridays') : allow()) },
      { id: 'second', review: (r) => (seen.push(`second:${r.command.type}`), allow()) },
    ];
    const { h, release, def } = holdSetup(reviewers);
    const id = await h.run(def);
    await h.settle();
    const error = await refusal(h.engine.control.send(id, { type: 'StopWorkflow' }, 'key:intern'));
    expect(error).toMatchObject({ code: 'FORBIDDEN', message: 'StopWorkflow refused: no stopping on Fridays (reviewer first)' });
    expect(h.engine.getRun(id).status).toBe('RUNNING'); // nothing applied
    await h.engine.control.send(id, { type: 'PauseNode', nodeId: 'out' }, 'key:intern');
    expect(seen).toEqual(['first:StopWorkflow', 'first:PauseNode', 'second:PauseNode']);
    const { entries } = await h.engine.control.audit({ executionId: id, offset: 0, limit: 10 });
    expect(entries.map((e) => [e.type, e.status, e.actor])).toEqual([
      ['CONTROL_APPLIED', 'PauseNode', 'key:intern'],
      ['CONTROL_REJECTED', 'StopWorkflow: no stopping on Fridays (reviewer first)', 'key:intern'],
    ]);
    expect(h.engine.control.listSupervisors().filter((s) => s.kind === 'CONTROL_PLANE')).toEqual([
      { id: 'first', kind: 'CONTROL_PLANE', order: 0, dryRun: false, refused: 1 },
      { id: 'second', kind: 'CONTROL_PLANE', order: 1, dryRun: false, refused: 0 },
    ]);
    release.open();
  });

  it('a reviewer that throws refuses', async () => {
    const { h, release, def } = holdSetup([{ id: 'broken', review: () => Promise.reject(new Error('policy store down')) }]);
    const id = await h.run(def);
    await h.settle();
    const error = await refusal(h.engine.control.send(id, { type: 'PauseWorkflow' }, 'ui:local'));
    expect(error).toMatchObject({ code: 'FORBIDDEN', message: 'PauseWorkflow refused: reviewer broken failed: policy store down' });
    release.open();
  });

  it('limit changes pass the reviewers and are audited under run "scheduler", also when made through the scheduler directly', async () => {
    const requests: ControlRequest[] = [];
    const guard: ControlReviewer = {
      id: 'limits',
      review: (r) => (requests.push(r), r.command.type === 'SetLimits' && (r.command.limits.maxConcurrent ?? 0) > 10 ? refuse('too many') : allow()),
    };
    const h = harness([], { control: { reviewers: [guard] } });
    const applied = await h.engine.control.send('scheduler', { type: 'SetLimits', limits: { maxConcurrent: 4 } }, 'key:admin');
    expect(applied.value).toMatchObject({ maxConcurrent: 4 });
    const refused = await refusal(h.engine.setSchedulerLimits({ maxConcurrent: 50 }, 'key:admin'));
    expect(refused.code).toBe('FORBIDDEN');
    expect((await h.engine.schedulerView()).limits.maxConcurrent).toBe(4);
    expect(requests.map((r) => [r.executionId, r.command.type, r.actor])).toEqual([
      ['scheduler', 'SetLimits', 'key:admin'],
      ['scheduler', 'SetLimits', 'key:admin'],
    ]);
    const { entries } = await h.engine.control.audit({ executionId: 'scheduler', offset: 0, limit: 10 });
    expect(entries.map((e) => [e.type, e.status])).toEqual([
      ['CONTROL_REJECTED', 'SetLimits: too many (reviewer limits)'],
      ['CONTROL_APPLIED', 'SetLimits'],
    ]);
  });

  it('priority changes pass the reviewers; a run that is not waiting is refused and audited once', async () => {
    const refuseHigh: ControlReviewer = {
      id: 'prio',
      review: (r) => (r.command.type === 'SetPriority' && r.command.priority > 100 ? refuse('above 100 needs an admin') : allow()),
    };
    const { h, release, def } = holdSetup([refuseHigh], { maxConcurrent: 1 });
    const running = await h.run(def);
    const queued = (await h.engine.startRun({ session: 'test', workflowId: 'rev', payload: {} })).executionId;
    expect((await h.engine.control.send(queued, { type: 'SetPriority', priority: 5 }, 'ui:local')).value).toMatchObject({ position: 1 });
    expect((await refusal(h.engine.control.send(queued, { type: 'SetPriority', priority: 500 }, 'ui:local'))).code).toBe('FORBIDDEN');
    expect((await refusal(h.engine.control.send(running, { type: 'SetPriority', priority: 1 }, 'ui:local'))).code).toBe('CONFLICT');
    const rows = async (id: string) => (await h.engine.control.audit({ executionId: id, offset: 0, limit: 10 })).entries.map((e) => `${e.type} ${e.status}`);
    expect(await rows(queued)).toEqual(['CONTROL_REJECTED SetPriority: above 100 needs an admin (reviewer prio)', 'CONTROL_APPLIED SetPriority']);
    expect(await rows(running)).toEqual([expect.stringMatching(/^CONTROL_REJECTED SetPriority: run ".*" is RUNNING, not QUEUED/)]);
    release.open();
  });
});
