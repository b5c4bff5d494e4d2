import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../engine/index';
import { createStudioClient } from '../../shared/api/client';
import { createMemoryTransport } from './memory-transport';
import { HOURLY_CRON_WORKFLOW, tempDataDir } from './host-test-support';
import { LOCAL_UI_CALLER, StudioHost, TRIGGERS_FILE } from './studio-host';

const HOURLY = HOURLY_CRON_WORKFLOW;

const open: StudioHost[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((h) => h.close()));
});

function host(dataDir: string, at: string, store: 'sqlite' | 'memory' = 'sqlite'): { host: StudioHost; clock: ManualClock } {
  const clock = new ManualClock(Date.parse(at));
  const h = new StudioHost({ dataDir, store, engine: { clock } });
  open.push(h);
  return { host: h, clock };
}

describe('EXT-01 CRON_TRIGGER: the host keeps the last fires in the data folder', () => {
  it('a fire missed while the app was closed is caught up once at the next start (RUN_ONCE)', async () => {
    const dataDir = await tempDataDir();
    const first = host(dataDir, '2026-01-01T00:30:00Z');
    await first.host.ready;
    await first.host.engine.saveWorkflow('default', HOURLY);
    await first.host.engine.triggers.sync();
    await open.splice(0, 1)[0]!.close();
    const file = join(dataDir, TRIGGERS_FILE);
    expect(Object.keys(JSON.parse(readFileSync(file, 'utf8')) as object)).toHaveLength(1);

    // Closed from 00:30 to 04:10: 01:00 … 04:00 were missed; one catch-up run, then on time again.
    const second = host(dataDir, '2026-01-01T04:10:00Z');
    await second.host.ready;
    await second.host.engine.triggers.sync();
    await second.clock.advanceAsync(0);
    const fires = second.host.engine.triggers.history();
    expect(fires.map((f) => [f.workflowId, f.outcome, new Date(f.scheduledAt).toISOString()])).toEqual([['hourly', 'STARTED', '2026-01-01T04:00:00.000Z']]);

    // triggers.list: the armed schedule, its next fire and the newest fire it handled.
    const api = createStudioClient(createMemoryTransport(second.host, LOCAL_UI_CALLER));
    const [listed, ...more] = await api['triggers.list']({});
    expect(more).toEqual([]);
    expect(listed).toMatchObject({
      session: 'default',
      workflowId: 'hourly',
      nodeId: 'cron',
      expression: '0 * * * *',
      timezone: 'UTC',
      missedFires: 'RUN_ONCE',
      nextFireAt: Date.parse('2026-01-01T05:00:00Z'),
    });
    expect(listed!.lastFire).toMatchObject({
      outcome: 'STARTED',
      scheduledAt: Date.parse('2026-01-01T04:00:00Z'),
      missed: 3,
      executionId: fires[0]!.executionId,
    });
    expect(await api['triggers.list']({ session: 'other' })).toEqual([]);
    expect(await api['triggers.list']({ workflowId: 'hourly' })).toHaveLength(1);
  });

  it('the memory store keeps no trigger file', async () => {
    const dataDir = await tempDataDir();
    const { host: h } = host(dataDir, '2026-01-01T00:30:00Z', 'memory');
    await h.engine.saveWorkflow('default', HOURLY);
    await h.engine.triggers.sync();
    expect(existsSync(join(dataDir, TRIGGERS_FILE))).toBe(false);
  });
});
