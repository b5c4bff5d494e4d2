import { describe, expect, it } from 'vitest';
import { LIMIT_SETTING_NAMES } from '../api/scheduler.schema';
import { SETTING_GROUPS } from './setting-spec';
import { parseDuration, parseSize, showDuration, showSize } from './setting-values';
import { looksLikeSettingEnv, nearestSettingKey, resolveSettingEnv, resolveSettingKey, SETTING_ROWS } from './settings-lookup';
import { SETTINGS } from './settings-table';

describe('CFG-01 the settings table', () => {
  it('names every key yukta.*, with one environment variable each, a group, a card and a description', () => {
    const envs = new Set<string>();
    for (const row of SETTING_ROWS) {
      expect(row.key).toMatch(/^yukta(\.[a-z][a-z0-9-]*)+$/);
      expect(row.env).toMatch(/^YUKTA_[A-Z0-9_]+$/);
      expect(envs.has(row.env), row.env).toBe(false);
      envs.add(row.env);
      expect(SETTING_GROUPS).toContain(row.spec.group);
      expect(row.spec.card).toMatch(/^[A-Z]{3}-\d{2}$/);
      expect(row.spec.description.length).toBeGreaterThan(10);
      expect(row.spec.role).toBe('ADMIN');
      if (row.spec.default !== undefined) expect(row.spec.value.schema.safeParse(row.spec.default).success, row.key).toBe(true);
    }
  });

  it('has the seed defaults of admission and idempotent start (seeds/admission-and-limits.md)', () => {
    const defaults = Object.fromEntries(SETTING_ROWS.map((r) => [r.key, r.spec.default]));
    expect(defaults).toMatchObject({
      'yukta.execution.max-concurrent': 0,
      'yukta.execution.max-concurrent-per-workflow': 0,
      'yukta.execution.max-concurrent-per-session': 0,
      'yukta.execution.on-limit': 'QUEUE',
      'yukta.execution.queue-capacity': 100,
      'yukta.execution.queue-capacity-per-workflow': 0,
      'yukta.execution.queue-timeout': 0,
      'yukta.execution.shutdown-timeout': 30_000,
      'yukta.start.idempotency-ttl': 600_000,
      'yukta.start.idempotency-max-keys': 100_000,
      'yukta.definitions.max-versions': 20,
      'yukta.supervisor.max-commands-per-second': 20,
      'yukta.supervisor.dry-run': false,
      'yukta.tracker.cleanup-ttl': 600_000,
      'yukta.tracker.max-sessions': 0,
      'yukta.execution.max-message-bytes': 10 * 1024 * 1024,
      'yukta.execution.max-depth': 128,
    });
    // The eight limits are live (ADM-03); every scheduler limit has its row.
    for (const key of Object.values(LIMIT_SETTING_NAMES)) expect(resolveSettingKey(key)?.row.spec.apply, key).toBe('live');
  });

  it('reads durations as the seeds write them (30s, 10m, 1h) or as milliseconds, and sizes in bytes or 10MiB', () => {
    expect([parseDuration('30s'), parseDuration('10m'), parseDuration('1h'), parseDuration('250ms'), parseDuration(1500), parseDuration('1500')]).toEqual([
      30_000, 600_000, 3_600_000, 250, 1500, 1500,
    ]);
    expect([parseDuration('soon'), parseDuration(-1), parseDuration(1.5), parseDuration('10 minutes')]).toEqual([null, null, null, null]);
    expect([showDuration(30_000), showDuration(600_000), showDuration(3_600_000), showDuration(0), showDuration(1500)]).toEqual([
      '30s',
      '10m',
      '1h',
      '0',
      '1500ms',
    ]);
    expect([parseSize('10MiB'), parseSize('512KiB'), parseSize('1GB'), parseSize(2048), parseSize('2048')]).toEqual([
      10_485_760, 524_288, 1_000_000_000, 2048, 2048,
    ]);
    expect([parseSize('ten'), parseSize('10MB/s')]).toEqual([null, null]);
    expect([showSize(10_485_760), showSize(16 * 1024 * 1024), showSize(1000)]).toEqual(['10MiB', '16MiB', '1000']);
    const timeout = SETTINGS['yukta.execution.queue-timeout'].value.schema;
    expect(timeout.parse('10m')).toBe(600_000);
    expect(timeout.safeParse('25d').success).toBe(false); // longer than a 32-bit timer
  });

  it('resolves pattern families and their environment variables', () => {
    expect(resolveSettingKey('yukta.llm.rate-limit.openai')).toMatchObject({ row: { key: 'yukta.llm.rate-limit' }, member: 'openai' });
    expect(resolveSettingKey('yukta.var.region')).toMatchObject({ row: { key: 'yukta.var' }, member: 'region' });
    expect(resolveSettingKey('yukta.llm.rate-limit')).toBeNull();
    expect(resolveSettingEnv('YUKTA_LLM_RATE_LIMIT_ANTHROPIC')).toMatchObject({ row: { key: 'yukta.llm.rate-limit' }, member: 'anthropic' });
    expect(resolveSettingEnv('YUKTA_EXECUTION_MAX_CONCURRENT')).toMatchObject({ row: { key: 'yukta.execution.max-concurrent' } });
    expect(resolveSettingEnv('YUKTA_VAR_REGION')).toBeNull();
  });

  it('names the nearest known key for a misspelt one', () => {
    expect(nearestSettingKey('yukta.execution.max-concurent')).toBe('yukta.execution.max-concurrent');
    expect(nearestSettingKey('yukta.start.idempotency-tl')).toBe('yukta.start.idempotency-ttl');
    expect(nearestSettingKey('yukta.llm.ratelimit.openai')).toBe('yukta.llm.rate-limit.openai');
    expect(looksLikeSettingEnv('YUKTA_EXECUTION_MAX_CONCURENT')).toBe(true);
    expect(looksLikeSettingEnv('YUKTA_API_KEYZ')).toBe(true);
    for (const other of [
      'YUKTA_DATA_DIR',
      'YUKTA_SECRET_OPENAI',
      'YUKTA_VAR_REGION',
      'YUKTA_DEV_SERVER_URL',
      'YUKTA_E2E_PORT',
      'YUKTA_URL',
      'YUKTA_KEY',
      'YUKTA_CLI_FROM_SOURCE',
      'HOME',
    ])
      expect(looksLikeSettingEnv(other), other).toBe(false);
  });
});
