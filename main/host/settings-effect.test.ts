import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../engine/index';
import type { StudioClient } from '../../shared/api/client';
import { isTerminal } from '../../shared/status/status';
import { closeHosts, failure, greeter, openHost, tempDataDir } from './host-test-support';
import { engineSettingsOf, parseHostSettings } from './host-settings';
import { loadSettings } from './loaded-settings';
import type { StudioHost } from './studio-host';

const live: StudioHost[] = [];

afterEach(async () => {
  // Runs wait on a DELAY in manual time: cancel them, so shutdown does not wait for them.
  for (const host of live.splice(0)) {
    for (const run of host.engine.listRuns({ limit: 1000 })) if (!isTerminal(run.status)) host.engine.cancelRun(run.executionId);
  }
  await closeHosts();
});

/** API_TRIGGER → DELAY (one hour of manual time) → CONSOLE_TERMINAL: a run that stays RUNNING. */
function slow(workflowId = 'slow') {
  return {
    workflowId,
    nodes: [
      { nodeId: 't', type: 'API_TRIGGER' },
      { nodeId: 'd', type: 'DELAY', config: { ms: 3_600_000 } },
      { nodeId: 'o', type: 'CONSOLE_TERMINAL' },
    ],
    edges: [
      { source: 't', target: 'd' },
      { source: 'd', target: 'o' },
    ],
  };
}

/** A host on a data folder whose settings.json holds `settings` (the only place they are given). */
async function hostWith(settings: Record<string, unknown>, workflows: Array<{ session?: string; workflowId: string }> = [{ workflowId: 'slow' }]) {
  const dataDir = await tempDataDir();
  writeFileSync(join(dataDir, 'settings.json'), JSON.stringify(settings));
  const clock = new ManualClock(0);
  const { host, api } = openHost({ dataDir, store: 'memory', settings: loadSettings({ dataDir, env: {} }), engine: { clock } });
  live.push(host);
  for (const w of workflows) await api['workflows.save']({ session: w.session ?? 'default', definition: slow(w.workflowId) });
  const start = async (workflowId = 'slow', session = 'default', idempotencyKey?: string) =>
    (await api['runs.start']({ session, workflowId, ...(idempotencyKey ? { idempotencyKey } : {}) })).executionId;
  const status = async (id: string) => (await api['runs.get']({ executionId: id })).status;
  return { host, api, clock, start, status };
}

async function rejected(api: StudioClient): Promise<Record<string, number>> {
  return (await api['scheduler.get']({})).metrics.rejected;
}

describe('ADM-01 each setting in settings.json takes effect', () => {
  it('yukta.execution.max-concurrent: the second start waits QUEUED', async () => {
    const { api, start, status } = await hostWith({ 'yukta.execution.max-concurrent': 1 });
    expect((await api['scheduler.get']({})).limits.maxConcurrent).toBe(1);
    const a = await start();
    const b = await start();
    expect([await status(a), await status(b)]).toEqual(['RUNNING', 'QUEUED']);
  });

  it('yukta.execution.max-concurrent-per-workflow: a second start of one workflow waits, another workflow runs', async () => {
    const { start, status } = await hostWith({ 'yukta.execution.max-concurrent-per-workflow': 1 }, [{ workflowId: 'a' }, { workflowId: 'b' }]);
    const a1 = await start('a');
    const a2 = await start('a');
    const b1 = await start('b');
    expect([await status(a1), await status(a2), await status(b1)]).toEqual(['RUNNING', 'QUEUED', 'RUNNING']);
  });

  it('yukta.execution.max-concurrent-per-session: a second start of one session waits, another session runs', async () => {
    const { start, status } = await hostWith({ 'yukta.execution.max-concurrent-per-session': 1 }, [
      { session: 'one', workflowId: 'slow' },
      { session: 'two', workflowId: 'slow' },
    ]);
    const a = await start('slow', 'one');
    const b = await start('slow', 'one');
    const c = await start('slow', 'two');
    expect([await status(a), await status(b), await status(c)]).toEqual(['RUNNING', 'QUEUED', 'RUNNING']);
  });

  it('yukta.execution.on-limit REJECT: a start over the cap is refused RATE_LIMITED (reason=limit)', async () => {
    const { api, start } = await hostWith({ 'yukta.execution.max-concurrent': 1, 'yukta.execution.on-limit': 'REJECT' });
    await start();
    expect((await failure(start())).code).toBe('RATE_LIMITED');
    expect((await rejected(api)).limit).toBe(1);
  });

  it('yukta.execution.queue-capacity: beyond one waiting start, QUEUE_FULL (reason=queue_full)', async () => {
    const { api, start } = await hostWith({ 'yukta.execution.max-concurrent': 1, 'yukta.execution.queue-capacity': 1 });
    await start();
    await start();
    expect((await failure(start())).code).toBe('QUEUE_FULL');
    expect((await rejected(api)).queue_full).toBe(1);
  });

  it('yukta.execution.queue-capacity-per-workflow: one workflow may keep one start waiting (reason=workflow_queue_full)', async () => {
    const { api, start, status } = await hostWith({ 'yukta.execution.max-concurrent': 1, 'yukta.execution.queue-capacity-per-workflow': 1 }, [
      { workflowId: 'a' },
      { workflowId: 'b' },
    ]);
    await start('a');
    await start('a');
    expect((await failure(start('a'))).code).toBe('QUEUE_FULL');
    expect(await status(await start('b'))).toBe('QUEUED');
    expect((await rejected(api)).workflow_queue_full).toBe(1);
  });

  it('yukta.execution.queue-timeout "10s": a start waiting longer ends TIMED_OUT (reason=queue_timeout)', async () => {
    const { api, clock, start, status } = await hostWith({ 'yukta.execution.max-concurrent': 1, 'yukta.execution.queue-timeout': '10s' });
    await start();
    const waiting = await start();
    clock.advance(9_999);
    expect(await status(waiting)).toBe('QUEUED');
    clock.advance(1);
    expect(await status(waiting)).toBe('TIMED_OUT');
    expect((await rejected(api)).queue_timeout).toBe(1);
  });

  it('yukta.execution.shutdown-timeout "2s": on close a running run gets two seconds, then ends CANCELLED', async () => {
    const { host, clock, start, status } = await hostWith({ 'yukta.execution.shutdown-timeout': '2s' });
    const id = await start();
    let closed = false;
    const closing = host.close().then(() => (closed = true));
    await new Promise((r) => setImmediate(r));
    clock.advance(1_999);
    await new Promise((r) => setImmediate(r));
    expect([closed, host.engine.getRun(id).status]).toEqual([false, 'RUNNING']);
    clock.advance(1);
    await closing;
    expect(host.engine.getRun(id).status).toBe('CANCELLED');
    expect(await status(id)).toBe('CANCELLED');
  });
});

describe('ADM-02 each setting in settings.json takes effect', () => {
  it('yukta.start.idempotency-ttl "1m": a repeat within a minute returns the first id, after it a new run', async () => {
    const { clock, start } = await hostWith({ 'yukta.start.idempotency-ttl': '1m' });
    const first = await start('slow', 'default', 'k');
    clock.advance(59_999);
    expect(await start('slow', 'default', 'k')).toBe(first);
    clock.advance(1);
    expect(await start('slow', 'default', 'k')).not.toBe(first);
  });

  it('yukta.start.idempotency-max-keys 1: a second key evicts the first, so its repeat starts again', async () => {
    const { start } = await hostWith({ 'yukta.start.idempotency-max-keys': 1 });
    const a = await start('slow', 'default', 'a');
    expect(await start('slow', 'default', 'a')).toBe(a);
    await start('slow', 'default', 'b');
    expect(await start('slow', 'default', 'a')).not.toBe(a);
  });
});

describe('CFG-01 the other settings the host honours', () => {
  it('yukta.definitions.max-versions 2: a third version deletes the oldest', async () => {
    const { api } = await hostWith({ 'yukta.definitions.max-versions': 2 }, []);
    for (const greeting of ['Hi', 'Hello', 'Hey']) await api['workflows.save']({ definition: greeter(greeting) });
    expect((await api['workflows.versions']({ workflowId: 'hello' })).length).toBe(2);
  });

  it('yukta.supervisor.dry-run: supervisors report dry-run', async () => {
    const { api } = await hostWith({ 'yukta.supervisor.dry-run': true }, []);
    const supervisors = (await api['supervisors.list']({})).filter((s) => s.kind === 'SUPERVISOR');
    expect(supervisors.map((s) => s.dryRun)).toEqual([true]);
  });

  it('yukta.tracker.status-history-max-per-run and -max-executions bound the history', async () => {
    const { host, api } = await hostWith({ 'yukta.tracker.status-history-max-per-run': 3, 'yukta.tracker.status-history-max-executions': 2 }, []);
    await api['workflows.save']({ definition: greeter() });
    const ids: string[] = [];
    for (const name of ['a', 'b', 'c']) {
      const { executionId } = await api['runs.start']({ workflowId: 'hello', payload: { name } });
      await host.engine.waitForRun(executionId);
      ids.push(executionId);
    }
    expect(host.engine.runHistory(ids[2]!).length).toBe(3);
    expect((await api['runs.list']({})).map((r) => r.executionId).sort()).toEqual(ids.slice(1).sort());
  });

  it('maps the supervisor rate and the restart archive onto the engine options', () => {
    const options = engineSettingsOf(parseHostSettings({ 'yukta.supervisor.max-commands-per-second': 5, 'yukta.restart.retained-executions': 7 }));
    expect(options.control).toMatchObject({ supervisorMaxCommandsPerSecond: 5, retainedRuns: 7, supervisorDryRun: false });
  });
});
