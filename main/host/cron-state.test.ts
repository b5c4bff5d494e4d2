import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../engine/index';
import { tempDataDir } from './host-test-support';
import { StudioHost, TRIGGERS_FILE } from './studio-host';

const HOURLY = {
  workflowId: 'hourly',
  nodes: [
    { nodeId: 'cron', type: 'CRON_TRIGGER', config: { expression: '0 * * * *', timezone: 'UTC', missedFires: 'RUN_ONCE', payload: {} } },
    { nodeId: 'out', type: 'CONSOLE_TERMINAL' },
  ],
  edges: [{ source: 'cron', target: 'out' }],
};

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
  });

  it('the memory store keeps no trigger file', async () => {
    const dataDir = await tempDataDir();
    const { host: h } = host(dataDir, '2026-01-01T00:30:00Z', 'memory');
    await h.engine.saveWorkflow('default', HOURLY);
    await h.engine.triggers.sync();
    expect(existsSync(join(dataDir, TRIGGERS_FILE))).toBe(false);
  });
});
