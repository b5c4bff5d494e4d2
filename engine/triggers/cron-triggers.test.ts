import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { WorkflowDefinitionInput } from '../../shared/workflow/definition.schema';
import { Engine, type EngineOptions } from '../engine';
import { builtinPlugins } from '../plugins/builtin';
import { definePlugin, type Plugin } from '../plugins/contract';
import { MemoryDefinitionStore } from '../store/memory/memory-definition-store';
import { SuspendableClock } from '../test-support/suspendable-clock';
import { FileTriggerStateStore } from './trigger-state-store';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();

function sink() {
  const seen: Array<{ payload: unknown; metadata: Record<string, string> }> = [];
  const plugin = definePlugin({
    type: 'SINK',
    kind: 'terminal',
    title: 'SINK',
    description: '',
    configSchema: z.record(z.string(), z.unknown()),
    defaultConfig: {},
    outputs: [],
    process: (m) => void seen.push({ payload: m.payload, metadata: { ...m.metadata } }),
  }) as unknown as Plugin<never>;
  return { plugin, seen };
}

function setup(startIso: string, options: EngineOptions = {}) {
  const clock = new SuspendableClock(Date.parse(startIso));
  const out = sink();
  const engine = new Engine({ plugins: [...builtinPlugins(), out.plugin], clock, ...options, triggers: { tickMs: HOUR, ...options.triggers } });
  return { engine, clock, out };
}

function cronFlow(
  workflowId: string,
  config: Record<string, unknown>,
  extra: { nodes?: WorkflowDefinitionInput['nodes']; edges?: WorkflowDefinitionInput['edges'] } = {},
): WorkflowDefinitionInput {
  return {
    workflowId,
    nodes: [{ nodeId: 'cron', type: 'CRON_TRIGGER', config }, { nodeId: 'out', type: 'SINK' }, ...(extra.nodes ?? [])],
    edges: [{ source: 'cron', target: 'out' }, ...(extra.edges ?? [])],
  };
}

describe('EXT-01 CRON_TRIGGER schedules', () => {
  it('fires at the cron times of its time zone (daylight saving included), each fire a run of the saved workflow', async () => {
    const { engine, clock, out } = setup('2026-03-27T00:00:00Z');
    await engine.saveWorkflow('ops', cronFlow('daily', { expression: '0 9 * * *', timezone: 'Europe/Berlin', payload: { job: 'report' } }));
    await engine.triggers.sync();
    expect(engine.triggers.list()).toEqual([
      expect.objectContaining({ session: 'ops', workflowId: 'daily', nodeId: 'cron', nextFireAt: Date.parse('2026-03-27T08:00:00Z') }),
    ]);
    await clock.advanceAsync(3 * DAY);
    // 09:00 in Berlin is 08:00 UTC before the switch to summer time on 29 March, 07:00 UTC after it.
    const expected = ['2026-03-27T08:00:00.000Z', '2026-03-28T08:00:00.000Z', '2026-03-29T07:00:00.000Z'];
    expect(engine.triggers.history().map((f) => [iso(f.scheduledAt), f.outcome])).toEqual(expected.map((t) => [t, 'STARTED']));
    expect(out.seen.map((s) => s.metadata['cron.scheduledAt'])).toEqual(expected);
    expect(out.seen[0]).toEqual({ payload: { job: 'report' }, metadata: expect.objectContaining({ 'cron.missed': '0', 'cron.catchUp': 'false' }) });
    const runs = engine.listRuns({ session: 'ops', limit: 100 });
    expect(runs.filter((r) => r.workflowId === 'daily' && r.status === 'SUCCESS')).toHaveLength(3);
  });

  it('reads 6-field expressions with seconds; another timezone gives other instants', async () => {
    const { engine, clock } = setup('2026-06-01T00:00:00Z', { triggers: { tickMs: 60_000 } });
    await engine.saveWorkflow('ops', cronFlow('fast', { expression: '*/20 * * * * *' }));
    await engine.saveWorkflow('ops', cronFlow('tokyo', { expression: '30 0 * * *', timezone: 'Asia/Tokyo' }));
    await engine.triggers.sync();
    await clock.advanceAsync(60_000);
    const fast = engine.triggers
      .history()
      .filter((f) => f.workflowId === 'fast')
      .map((f) => iso(f.scheduledAt));
    expect(fast).toEqual(['2026-06-01T00:00:20.000Z', '2026-06-01T00:00:40.000Z', '2026-06-01T00:01:00.000Z']);
    expect(engine.triggers.list().find((t) => t.workflowId === 'tokyo')!.nextFireAt).toBe(Date.parse('2026-06-01T15:30:00Z'));
  });

  it('starts runs through admission: at the concurrency cap a fire waits QUEUED like any start', async () => {
    const { engine, clock } = setup('2026-01-01T00:00:00Z', { scheduler: { limits: { maxConcurrent: 1 } } });
    const held = cronFlow(
      'held',
      { expression: '*/30 * * * *' },
      { nodes: [{ nodeId: 'wait', type: 'WAIT_FOR_SIGNAL', config: { signal: 'go', timeoutSeconds: 86_400 } }], edges: [{ source: 'cron', target: 'wait' }] },
    );
    await engine.saveWorkflow('ops', held);
    await engine.triggers.sync();
    await clock.advanceAsync(HOUR); // fires at 00:30 and 01:00; the first run still waits for its signal
    const [first, second] = engine.triggers.history();
    expect([first!.outcome, second!.outcome]).toEqual(['STARTED', 'STARTED']);
    expect(engine.getRun(first!.executionId!).status).toBe('RUNNING');
    expect(engine.getRun(second!.executionId!).status).toBe('QUEUED');
  });

  it('follows the stored definitions: armed on save, re-armed on change, disarmed when disabled or deleted; a manual run emits at once', async () => {
    const { engine, clock, out } = setup('2026-01-01T00:00:00Z');
    await engine.saveWorkflow('ops', cronFlow('w', { expression: '0 12 * * *' }));
    await engine.triggers.sync();
    expect(engine.triggers.list().map((t) => t.expression)).toEqual(['0 12 * * *']);
    await engine.saveWorkflow('ops', cronFlow('w', { expression: '0 18 * * *', timezone: 'America/New_York' }));
    await engine.triggers.sync();
    expect(engine.triggers.list().map((t) => [t.expression, iso(t.nextFireAt!)])).toEqual([['0 18 * * *', '2026-01-01T23:00:00.000Z']]);
    await engine.saveWorkflow('ops', cronFlow('w', { expression: '0 18 * * *', timezone: 'America/New_York', enabled: false }));
    await engine.triggers.sync();
    expect(engine.triggers.list()).toEqual([]);
    await engine.saveWorkflow('ops', cronFlow('w', { expression: '0 18 * * *', payload: { a: 1 } }));
    await engine.triggers.sync();
    expect(engine.triggers.list()).toHaveLength(1);
    const manual = await engine.startRun({ session: 'ops', workflowId: 'w', payload: { b: 2 } });
    expect(await engine.waitForRun(manual.executionId)).toBe('SUCCESS');
    expect(out.seen).toEqual([{ payload: { a: 1, b: 2 }, metadata: expect.objectContaining({ 'cron.manual': 'true' }) }]);
    await engine.workflows.delete('ops', 'w');
    await engine.triggers.sync();
    expect(engine.triggers.list()).toEqual([]);
    await clock.advanceAsync(2 * DAY);
    expect(engine.triggers.history()).toEqual([]);
  });

  it('refuses a bad expression or time zone at validation, naming the option', () => {
    const { engine } = setup('2026-01-01T00:00:00Z');
    const bad = engine.validate(cronFlow('bad', { expression: '61 * * * *' }));
    expect(bad.valid).toBe(false);
    expect(bad.issues[0]!.message).toMatch(/cron expression/);
    const tz = engine.validate(cronFlow('tz', { expression: '0 * * * *', timezone: 'Mars/Olympus' }));
    expect(tz.valid).toBe(false);
    expect(tz.issues[0]!.message).toMatch(/IANA time zone/);
  });
});

describe('EXT-01 CRON_TRIGGER missed-fire policy', () => {
  it('machine asleep: SKIP drops the fires that came due while asleep, RUN_ONCE starts one catch-up run; the next fires run on time', async () => {
    const { engine, clock, out } = setup('2026-01-01T00:30:00Z', { triggers: { tickMs: 60_000 } });
    await engine.saveWorkflow('ops', cronFlow('skip', { expression: '0 * * * *', missedFires: 'SKIP', payload: { policy: 'skip' } }));
    await engine.saveWorkflow('ops', cronFlow('once', { expression: '0 * * * *', missedFires: 'RUN_ONCE', payload: { policy: 'once' } }));
    await engine.triggers.sync();
    // Asleep from 00:30 to 05:30: the 01:00 … 05:00 fires (5) are missed; the wake is noticed within a tick.
    clock.suspend(5 * HOUR);
    await clock.advanceAsync(60_000);
    const afterWake = engine.triggers.history().map((f) => [f.workflowId, f.outcome, iso(f.scheduledAt), f.missed]);
    expect(afterWake).toEqual(
      expect.arrayContaining([
        ['skip', 'SKIPPED', '2026-01-01T05:00:00.000Z', 5],
        ['once', 'STARTED', '2026-01-01T05:00:00.000Z', 4],
      ]),
    );
    expect(afterWake).toHaveLength(2);
    expect(out.seen).toEqual([
      {
        payload: { policy: 'once' },
        metadata: expect.objectContaining({
          'cron.scheduledAt': '2026-01-01T05:00:00.000Z',
          'cron.missed': '4',
          'cron.catchUp': 'true',
          'cron.firedAt': '2026-01-01T05:31:00.000Z',
        }),
      },
    ]);
    // 06:00 fires on time for both.
    await clock.advanceAsync(30 * 60_000);
    expect(
      out.seen
        .slice(1)
        .map((s) => [(s.payload as { policy: string }).policy, s.metadata['cron.scheduledAt'], s.metadata['cron.catchUp']])
        .sort(),
    ).toEqual([
      ['once', '2026-01-01T06:00:00.000Z', 'false'],
      ['skip', '2026-01-01T06:00:00.000Z', 'false'],
    ]);
  });

  it('a fire that is only a little late (within the 60 s grace, e.g. a busy machine) still runs', async () => {
    const { engine, clock, out } = setup('2026-01-01T00:59:00Z', { triggers: { tickMs: 60_000 } });
    await engine.saveWorkflow('ops', cronFlow('skip', { expression: '0 * * * *', missedFires: 'SKIP' }));
    await engine.triggers.sync();
    // Armed at 00:59 with a 60 s timer; 30 s of sleep on the way make it come at 01:00:30 by the wall clock.
    clock.suspend(30_000);
    await clock.advanceAsync(60_000);
    expect(engine.triggers.history().map((f) => f.outcome)).toEqual(['STARTED']);
    expect(out.seen).toHaveLength(1);
  });

  it('app closed: the last fire is kept in a file; at the next start RUN_ONCE catches up once and SKIP does not', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'cron-')), 'triggers.json');
    const definitions = new MemoryDefinitionStore();
    const first = setup('2026-01-01T00:30:00Z', { definitions, triggers: { state: new FileTriggerStateStore(file) } });
    await first.engine.saveWorkflow('ops', cronFlow('skip', { expression: '0 * * * *', missedFires: 'SKIP' }));
    await first.engine.saveWorkflow('ops', cronFlow('once', { expression: '0 * * * *', missedFires: 'RUN_ONCE' }));
    await first.engine.triggers.sync();
    await first.clock.advanceAsync(HOUR); // 01:00 fires on time for both
    expect(first.engine.triggers.history().map((f) => f.outcome)).toEqual(['STARTED', 'STARTED']);
    await first.engine.shutdown();
    expect(Object.values(JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>)).toEqual([
      Date.parse('2026-01-01T01:00:00Z'),
      Date.parse('2026-01-01T01:00:00Z'),
    ]);

    // Closed from 01:30 until 04:10: 02:00, 03:00 and 04:00 were missed.
    const second = setup('2026-01-01T04:10:00Z', { definitions, triggers: { state: new FileTriggerStateStore(file) } });
    await second.engine.triggers.sync();
    await second.engine.ready;
    await second.clock.advanceAsync(0);
    const fires = second.engine.triggers.history().map((f) => [f.workflowId, f.outcome, iso(f.scheduledAt), f.missed]);
    expect(fires.sort()).toEqual([
      ['once', 'STARTED', '2026-01-01T04:00:00.000Z', 2],
      ['skip', 'SKIPPED', '2026-01-01T04:00:00.000Z', 3],
    ]);
    expect(second.out.seen).toEqual([{ payload: {}, metadata: expect.objectContaining({ 'cron.catchUp': 'true', 'cron.missed': '2' }) }]);
    // A third start right away finds nothing more to catch up.
    await second.engine.shutdown();
    const third = setup('2026-01-01T04:20:00Z', { definitions, triggers: { state: new FileTriggerStateStore(file) } });
    await third.engine.triggers.sync();
    expect(third.engine.triggers.history()).toEqual([]);
  });
});
