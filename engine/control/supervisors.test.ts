import { describe, expect, it } from 'vitest';
import type { StudioEvent } from '../../shared/events/events';
import { NodeId } from '../../shared/workflow/ids';
import { chain, gate, harness, processor, recorder } from '../test-support/engine-harness';
import type { Supervisor, SupervisorCommand } from './supervisors/supervisor';
import { SUPERVISOR_BUFFER } from './supervisors/supervisor-host';

/** A supervisor from a function called per event; it may return commands. */
function supervisor(id: string, onEvent: (event: StudioEvent) => SupervisorCommand[] | Promise<SupervisorCommand[]>): Supervisor {
  return {
    id,
    async *supervise(events) {
      for await (const event of events) yield* await onEvent(event);
    },
  };
}

const splitFlow = (workflowId: string) =>
  chain(workflowId, [
    { nodeId: 's', type: 'SPLIT', config: { path: 'payload.items' } },
    { nodeId: 'x', type: 'TRANSFORM' },
  ]);
const items = (n: number) => ({ items: Array.from({ length: n }, (_, i) => ({ i })) });

describe('CTL-07 supervisors', () => {
  it('isolation: one that throws, one that floods, one that is slow — the tracker and the runs are unaffected', async () => {
    const forever = gate();
    let slowSeen = 0;
    const throwing = supervisor('throws', () => {
      throw new Error('bug in supervisor');
    });
    const flooding = supervisor('floods', (e) => Array.from({ length: 50 }, () => ({ executionId: e.executionId, command: { type: 'ResumeWorkflow' } })));
    const slow = supervisor('slow', async () => {
      slowSeen++;
      await forever.opened; // never returns: its buffer fills up
      return [];
    });
    const rec = recorder();
    const h = harness([rec.plugin], { control: { supervisors: [throwing, flooding, slow] } });
    const ids: string[] = [];
    for (let r = 0; r < 4; r++) ids.push(await h.run(splitFlow(`iso${r}`), items(100)));
    for (const id of ids) expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    await h.settle();
    expect(rec.seen).toHaveLength(400); // every run complete, whatever the supervisors did
    for (const id of ids) expect(h.engine.getRun(id).nodes.every((n) => n.status === 'SUCCESS')).toBe(true);
    const info = Object.fromEntries(h.engine.control.listSupervisors().map((s) => [s.id, s]));
    expect(info.throws!.restarts).toBeGreaterThanOrEqual(1);
    expect(info.throws!.lastError).toBe('bug in supervisor');
    expect(info.floods!.commands!.rateLimited).toBeGreaterThan(0);
    expect(info.floods!.commands!.applied + info.floods!.commands!.rejected).toBeLessThanOrEqual(20); // no time passed: one second's worth
    expect(info.slow!.dropped).toBeGreaterThan(0);
    expect(slowSeen).toBe(1);
    expect(h.engine.control.supervisors.buffered().slow).toBeLessThanOrEqual(SUPERVISOR_BUFFER); // bounded memory
    expect(h.engine.control.metrics()['yukta.tracker.dropped{kind=supervisor}']).toBe(
      h.engine.control.listSupervisors().reduce((sum, s) => sum + (s.dropped ?? 0), 0),
    );
    h.engine.control.close();
  });

  it('resubscribes a failing supervisor with exponential backoff on the engine clock', async () => {
    let subscriptions = 0;
    const flaky: Supervisor = {
      id: 'flaky',
      // eslint-disable-next-line require-yield
      async *supervise(events) {
        subscriptions++;
        for await (const _ of events) throw new Error(`failure ${subscriptions}`);
      },
    };
    const h = harness([recorder().plugin], { control: { supervisors: [flaky] } });
    await h.engine.waitForRun(await h.run(splitFlow('flaky'), items(1)));
    await h.settle();
    const state = () => h.engine.control.listSupervisors().find((s) => s.id === 'flaky')!;
    expect(state()).toMatchObject({ state: 'BACKOFF', restarts: 1 });
    await h.clock.advanceAsync(99);
    expect(subscriptions).toBe(1);
    await h.clock.advanceAsync(1);
    expect(subscriptions).toBe(2);
    expect(state().state).toBe('RUNNING');
    await h.engine.waitForRun(await h.run(splitFlow('flaky'), items(1)));
    await h.settle();
    await h.clock.advanceAsync(199);
    expect(subscriptions).toBe(2); // the second backoff is twice as long
    await h.clock.advanceAsync(1);
    expect(subscriptions).toBe(3);
    h.engine.control.close();
  });

  it('applies commands with its id as actor and never sees the outcome of its own commands', async () => {
    const release = gate();
    const hold = processor('HOLD', async (m) => (await release.opened, [{ payload: m.payload }]));
    const pauserSaw: StudioEvent[] = [];
    const observerSaw: StudioEvent[] = [];
    const pauser = supervisor('pauser', (e) => {
      pauserSaw.push(e);
      return e.type === 'NODE_STATUS' && e.nodeId === 'x' && e.status === 'RUNNING'
        ? [{ executionId: e.executionId, command: { type: 'PauseNode', nodeId: 'out' } }]
        : [];
    });
    const observer = supervisor('observer', (e) => (observerSaw.push(e), []));
    const h = harness([hold, recorder().plugin], { control: { supervisors: [pauser, observer] } });
    const id = await h.run(chain('own', [{ nodeId: 'x', type: 'HOLD' }]));
    await h.settle();
    expect(h.engine.control.state(id).nodes.find((n) => n.nodeId === 'out')!.paused).toBe(true);
    const { entries } = await h.engine.control.audit({ executionId: id, offset: 0, limit: 10 });
    expect(entries).toMatchObject([{ type: 'CONTROL_APPLIED', status: 'PauseNode', actor: 'supervisor:pauser' }]);
    expect(observerSaw.some((e) => e.type === 'CONTROL' && e.actor === 'supervisor:pauser')).toBe(true);
    expect(pauserSaw.some((e) => e.type === 'CONTROL')).toBe(false);
    release.open();
    await h.engine.control.send(id, { type: 'ResumeNode', nodeId: 'out' }, 'ui:local');
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    h.engine.control.close();
  });

  it('dry run records commands without applying them', async () => {
    const release = gate();
    const hold = processor('HOLD', async (m) => (await release.opened, [{ payload: m.payload }]));
    const stopper = supervisor('stopper', (e) =>
      e.type === 'EXECUTION_STATUS' && e.status === 'RUNNING' ? [{ executionId: e.executionId, command: { type: 'StopWorkflow', mode: 'KILL' } }] : [],
    );
    const h = harness([hold, recorder().plugin], { control: { supervisors: [stopper], supervisorDryRun: true } });
    const id = await h.run(chain('dry', [{ nodeId: 'x', type: 'HOLD' }]));
    await h.settle();
    release.open();
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    expect(h.engine.control.listSupervisors().find((s) => s.id === 'stopper')).toMatchObject({ dryRun: true, commands: { dryRun: 1, applied: 0 } });
    expect(h.engine.control.supervisors.dryRunCommands('stopper')).toEqual([{ executionId: id, command: { type: 'StopWorkflow', mode: 'KILL' } }]);
    expect((await h.engine.control.audit({ offset: 0, limit: 10 })).total).toBe(0);
    h.engine.control.close();
  });

  it('the rule supervisor applies JSON rules (CEL on event fields → command) per session', async () => {
    const release = gate();
    const hold = processor('HOLD', async (m) => (await release.opened, [{ payload: m.payload }]));
    const h = harness([hold, recorder().plugin]);
    expect(() => h.engine.control.setRules('test', [{ when: 'status ==', then: { type: 'PauseWorkflow' } }])).toThrow(
      /rules\.0\.when: not a valid CEL condition/,
    );
    h.engine.control.setRules('test', [
      {
        name: 'hold x',
        when: "event.type == 'NODE_STATUS' && event.nodeId == 'x' && event.status == 'RUNNING'",
        then: { type: 'PauseNode', nodeId: NodeId.parse('out') },
      },
    ]);
    h.engine.control.setRules('other', [{ when: "event.type == 'EXECUTION_STATUS'", then: { type: 'StopWorkflow', mode: 'KILL' } }]);
    expect(h.engine.control.getRules('test')).toHaveLength(1);
    const id = await h.run(chain('rules', [{ nodeId: 'x', type: 'HOLD' }]));
    await h.settle();
    expect(h.engine.control.state(id).nodes.find((n) => n.nodeId === 'out')!.paused).toBe(true);
    const { entries } = await h.engine.control.audit({ executionId: id, offset: 0, limit: 10 });
    expect(entries).toMatchObject([{ status: 'PauseNode', actor: 'supervisor:rules' }]); // the other session's rule did not fire
    release.open();
    await h.engine.control.send(id, { type: 'ResumeNode', nodeId: 'out' }, 'ui:local');
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    h.engine.control.close();
  });
});
