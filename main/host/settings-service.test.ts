import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../engine/index';
import type { SettingEntry } from '../../shared/api/settings.schema';
import { closeHosts, failure, openHost, tempDataDir } from './host-test-support';
import { loadSettings, type LoadSettingsOptions } from './loaded-settings';
import type { StudioHostOptions } from './studio-host';

afterEach(closeHosts);

const ADMIN_KEY = 'admin-key-0123456789abcdef';

async function dataWith(settings: Record<string, unknown>): Promise<string> {
  const dataDir = await tempDataDir();
  writeFileSync(join(dataDir, 'settings.json'), JSON.stringify(settings));
  return dataDir;
}

function host(
  dataDir: string,
  load: Omit<LoadSettingsOptions, 'dataDir'> = {},
  extra: StudioHostOptions = {},
  role: 'ADMIN' | 'OPERATOR' | 'VIEWER' = 'ADMIN',
) {
  const settings = loadSettings({ dataDir, env: {}, ...load });
  return openHost({ dataDir, settings, env: {}, engine: { clock: new ManualClock(1_000_000) }, ...extra }, { actor: `key:${role.toLowerCase()}`, role });
}

function entry(settings: SettingEntry[], key: string): SettingEntry {
  const found = settings.find((s) => s.key === key);
  if (!found) throw new Error(`settings.get has no ${key}`);
  return found;
}

describe('CFG-01 settings.get', () => {
  it('shows each value with its default and source: default, file, env, flag', async () => {
    const dataDir = await dataWith({ 'yukta.execution.max-concurrent': 2, 'yukta.execution.queue-timeout': '10s', 'yukta.llm.rate-limit.openai': 60 });
    const { api } = host(dataDir, { env: { YUKTA_TRACKER_MAX_SESSIONS: '3' }, flags: ['yukta.definitions.max-versions=5'] }, {}, 'VIEWER');
    const view = await api['settings.get']({});
    const file = join(dataDir, 'settings.json');
    expect(view.file).toBe(file);
    expect(view.dataDir).toBe(dataDir); // the Settings screen shows it (STU-07)
    expect(entry(view.settings, 'yukta.execution.max-concurrent')).toMatchObject({
      value: 2,
      shown: '2',
      default: 0,
      source: { kind: 'file', name: file },
      apply: 'live',
      role: 'ADMIN',
      env: 'YUKTA_EXECUTION_MAX_CONCURRENT',
      group: 'Admission',
    });
    expect(entry(view.settings, 'yukta.execution.queue-timeout')).toMatchObject({ value: 10_000, shown: '10s', unit: 'duration' });
    expect(entry(view.settings, 'yukta.tracker.max-sessions')).toMatchObject({
      value: 3,
      source: { kind: 'env', name: 'YUKTA_TRACKER_MAX_SESSIONS' },
      apply: 'restart',
    });
    expect(entry(view.settings, 'yukta.definitions.max-versions')).toMatchObject({ value: 5, source: { kind: 'flag', name: '--set' } });
    expect(entry(view.settings, 'yukta.execution.on-limit')).toMatchObject({ value: 'QUEUE', source: { kind: 'default' } });
    expect(entry(view.settings, 'yukta.execution.shutdown-timeout')).toMatchObject({ value: 30_000, shown: '30s' });
    expect(entry(view.settings, 'yukta.llm.rate-limit.openai')).toMatchObject({ value: 60, env: 'YUKTA_LLM_RATE_LIMIT_OPENAI', source: { kind: 'file' } });
    // SCL-02 is built: its settings are offered like any other.
    expect(entry(view.settings, 'yukta.ha.lease')).toMatchObject({ value: 15_000, shown: '15s', source: { kind: 'default' }, apply: 'restart' });
  });

  it('never returns an API key in clear', async () => {
    const dataDir = await dataWith({ 'yukta.api-key': ADMIN_KEY, 'yukta.api-keys': [{ name: 'ops', key: 'ops-key-0123456789abcdef', role: 'OPERATOR' }] });
    const { api } = host(dataDir);
    const view = await api['settings.get']({});
    expect(JSON.stringify(view)).not.toContain('0123456789abcdef');
    expect(entry(view.settings, 'yukta.api-key')).toMatchObject({ value: '••••', shown: '••••', secret: true, source: { kind: 'file' } });
    expect(entry(view.settings, 'yukta.api-keys')).toMatchObject({ value: '••••', secret: true });
  });

  it('shows a scheduler limit changed live with source log, and the log wins after a restart (ADM-03)', async () => {
    const dataDir = await dataWith({ 'yukta.execution.max-concurrent': 2 });
    const first = host(dataDir);
    const set = await first.api['settings.set']({ key: 'yukta.execution.max-concurrent', value: 3 });
    expect(set).toMatchObject({
      key: 'yukta.execution.max-concurrent',
      applied: 'now',
      setting: { value: 3, source: { kind: 'log', name: expect.stringMatching(/^SetLimits by key:admin at /) } },
    });
    expect((await first.api['scheduler.get']({})).limits.maxConcurrent).toBe(3);
    await closeHosts();
    const second = host(dataDir);
    const after = entry((await second.api['settings.get']({})).settings, 'yukta.execution.max-concurrent');
    expect(after).toMatchObject({ value: 3, source: { kind: 'log' } });
    expect((await second.api['scheduler.get']({})).limits.maxConcurrent).toBe(3);
  });
});

describe('CFG-01 settings.set', () => {
  it('saves a restart setting to settings.json atomically, marks it pending, audits it, and applies it at the next start', async () => {
    const dataDir = await dataWith({ 'yukta.tracker.cleanup-ttl': '1m' });
    const first = host(dataDir);
    const set = await first.api['settings.set']({ key: 'yukta.tracker.cleanup-ttl', value: '2m' });
    expect(set).toMatchObject({ applied: 'after-restart', setting: { value: 60_000, shown: '1m', pending: { value: 120_000, shown: '2m' } } });
    expect(JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8'))).toEqual({ 'yukta.tracker.cleanup-ttl': '2m' });
    const audit = await first.api['control.audit']({ executionId: 'settings' });
    expect(audit.entries).toEqual([{ runId: 'settings', type: 'CONTROL_APPLIED', status: 'SetSetting', actor: 'key:admin', at: 1_000_000 }]);
    expect((await first.host.stores.log!.runEntries('settings'))[0]!.data).toEqual({ key: 'yukta.tracker.cleanup-ttl', value: '2m' });
    await closeHosts();
    const second = host(dataDir);
    const after = entry((await second.api['settings.get']({})).settings, 'yukta.tracker.cleanup-ttl');
    expect(after).toMatchObject({ value: 120_000, source: { kind: 'file' } });
    expect(after.pending).toBeUndefined();
    expect((await second.api['control.audit']({ executionId: 'settings' })).total).toBe(1);
  });

  it('says when the environment will still win over the saved value, and masks a secret', async () => {
    const dataDir = await dataWith({});
    const { api, host: h } = host(dataDir, { env: { YUKTA_PROCESS_ENABLED: 'false' } });
    const set = await api['settings.set']({ key: 'yukta.process.enabled', value: true });
    expect(set.setting.pending).toEqual({ value: true, shown: 'true', overriddenBy: { kind: 'env', name: 'YUKTA_PROCESS_ENABLED' } });
    const secret = await api['settings.set']({ key: 'yukta.api-key', value: ADMIN_KEY });
    expect(secret.setting.pending).toMatchObject({ value: '••••', shown: '••••' });
    expect(JSON.stringify(await api['settings.get']({}))).not.toContain(ADMIN_KEY);
    const rows = await h.stores.log!.runEntries('settings');
    expect(JSON.stringify(rows)).not.toContain(ADMIN_KEY);
    expect(JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8'))['yukta.api-key']).toBe(ADMIN_KEY);
  });

  it('refuses an unknown key with the nearest known one, a bad value naming the key, and a mode SCL-02 does not have', async () => {
    const dataDir = await dataWith({});
    const { api } = host(dataDir);
    const unknown = await failure(api['settings.set']({ key: 'yukta.execution.max-concurent', value: 1 }));
    expect([unknown.code, unknown.path, unknown.message]).toEqual([
      'BAD_INPUT',
      'key',
      'unknown setting "yukta.execution.max-concurent" in settings.set: did you mean yukta.execution.max-concurrent?',
    ]);
    const bad = await failure(api['settings.set']({ key: 'yukta.execution.queue-timeout', value: 'soon' }));
    expect([bad.code, bad.path]).toEqual(['BAD_INPUT', 'value']);
    expect(bad.message).toMatch(/^setting yukta\.execution\.queue-timeout in settings\.set: must be a duration/);
    expect((await failure(api['settings.set']({ key: 'yukta.ha.mode', value: 'off' }))).message).toMatch(/^setting yukta\.ha\.mode in settings\.set: must be /);
    expect(JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8'))).toEqual({});
  });

  it('is refused for a non-ADMIN, also as a SetSetting command, and changes nothing', async () => {
    const dataDir = await dataWith({});
    for (const role of ['VIEWER', 'OPERATOR'] as const) {
      const { api } = host(dataDir, {}, {}, role);
      expect((await failure(api['settings.set']({ key: 'yukta.tracker.max-sessions', value: 2 }))).code).toBe('FORBIDDEN');
      const command = await failure(
        api['control.send']({ executionId: 'settings', command: { type: 'SetSetting', key: 'yukta.tracker.max-sessions', value: 2 } }),
      );
      expect(command.code).toBe('FORBIDDEN');
    }
    expect(JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8'))).toEqual({});
  });

  it('is refused by a reviewer: FORBIDDEN, audited CONTROL_REJECTED with the actor, nothing written', async () => {
    const dataDir = await dataWith({});
    const frozen = { id: 'frozen', review: () => ({ allow: false as const, reason: 'settings are frozen' }) };
    const { api } = host(dataDir, {}, { engine: { clock: new ManualClock(5), control: { reviewers: [frozen] } } });
    const refused = await failure(api['settings.set']({ key: 'yukta.tracker.max-sessions', value: 2 }));
    expect([refused.code, refused.message]).toEqual(['FORBIDDEN', 'SetSetting refused: settings are frozen (reviewer frozen)']);
    const limit = await failure(api['settings.set']({ key: 'yukta.execution.max-concurrent', value: 2 }));
    expect(limit.code).toBe('FORBIDDEN');
    expect((await api['control.audit']({ type: 'CONTROL_REJECTED' })).entries.map((e) => [e.runId, e.status, e.actor])).toEqual([
      ['scheduler', 'SetLimits: settings are frozen (reviewer frozen)', 'key:admin'],
      ['settings', 'SetSetting: settings are frozen (reviewer frozen)', 'key:admin'],
    ]);
    expect(JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8'))).toEqual({});
    expect((await api['scheduler.get']({})).limits.maxConcurrent).toBe(0);
    expect(entry((await api['settings.get']({})).settings, 'yukta.tracker.max-sessions').pending).toBeUndefined();
  });
});
