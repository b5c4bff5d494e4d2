import { existsSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ManualClock } from '../../engine/index';
import { closeHosts, HOURLY_CRON_WORKFLOW, openHostOn, tempDataDir } from './host-test-support';
import { TRIGGERS_FILE } from './studio-host';

afterEach(closeHosts);

const HOURLY = HOURLY_CRON_WORKFLOW;

async function postgresHost(dataDir: string, at: string) {
  const clock = new ManualClock(Date.parse(at));
  const opened = await openHostOn({ dataDir, store: 'postgres', engine: { clock } });
  return { ...opened, clock };
}

/** The key–value rows of the host's schema, read by another connection. */
async function keyValues(host: Awaited<ReturnType<typeof postgresHost>>['host'], namespace: string): Promise<string[]> {
  const { settings } = host;
  const client = new pg.Client({ connectionString: settings['yukta.postgres.url'], options: `-c search_path=${settings['yukta.postgres.schema']}` });
  await client.connect();
  try {
    return (await client.query<{ key: string }>('SELECT key FROM key_values WHERE namespace = $1 ORDER BY key', [namespace])).rows.map((r) => r.key);
  } finally {
    await client.end();
  }
}

describe('DUR-04 key–value state on PostgreSQL: trigger fires and supervisor rules survive a restart', () => {
  it("CRON_TRIGGER's last fires live in the database (no triggers.json): a fire missed while closed is caught up once", async () => {
    const dataDir = await tempDataDir();
    const first = await postgresHost(dataDir, '2026-01-01T00:30:00Z');
    await first.host.ready;
    await first.host.engine.saveWorkflow('default', HOURLY);
    await first.host.engine.triggers.sync();
    expect(await keyValues(first.host, 'triggers')).toHaveLength(1);
    await closeHosts();
    expect(existsSync(join(dataDir, TRIGGERS_FILE))).toBe(false);

    const second = await postgresHost(dataDir, '2026-01-01T04:10:00Z');
    await second.host.ready;
    await second.host.engine.triggers.sync();
    await second.clock.advanceAsync(0);
    // The catch-up start is stored on the server before it counts as started: wait for that write, not for time.
    await vi.waitFor(() => expect(second.host.engine.triggers.history()).toHaveLength(1), { timeout: 30_000 });
    expect(second.host.engine.triggers.history().map((f) => [f.outcome, new Date(f.scheduledAt).toISOString()])).toEqual([
      ['STARTED', '2026-01-01T04:00:00.000Z'],
    ]);
  });

  it('rules set through the contract are stored before the answer and back after a restart; refused rules store nothing; no rules delete the row', async () => {
    const dataDir = await tempDataDir();
    const first = await postgresHost(dataDir, '2026-01-01T00:00:00Z');
    const rules = [
      {
        name: 'stop failures',
        when: "event.type == 'NODE_STATUS' && event.status == 'FAILURE'",
        then: { type: 'StopWorkflow' as const, mode: 'CANCEL' as const },
      },
    ];
    expect(await first.api['supervisors.setRules']({ session: 'default', rules })).toEqual(rules);
    await expect(first.api['supervisors.setRules']({ session: 'team', rules: [{ when: 'event ==', then: { type: 'PauseWorkflow' } }] })).rejects.toMatchObject({
      code: 'BAD_INPUT',
      path: 'rules.0.when',
    });
    expect(await keyValues(first.host, 'supervisor-rules')).toEqual(['default']);
    await closeHosts();

    const second = await postgresHost(dataDir, '2026-01-01T00:00:00Z');
    await second.host.ready;
    expect(await second.api['supervisors.getRules']({ session: 'default' })).toEqual(rules);
    expect(await second.api['supervisors.getRules']({ session: 'team' })).toEqual([]);
    await second.api['supervisors.setRules']({ session: 'default', rules: [] });
    expect(await keyValues(second.host, 'supervisor-rules')).toEqual([]);
  });
});
