import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDataDir } from './host-test-support';
import { loadSettings, type LoadSettingsOptions } from './loaded-settings';

async function withFile(content: Record<string, unknown>): Promise<string> {
  const dir = await tempDataDir();
  writeFileSync(join(dir, 'settings.json'), JSON.stringify(content));
  return dir;
}

function refusal(options: LoadSettingsOptions): string {
  try {
    loadSettings(options);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('loadSettings accepted the settings');
}

describe('CFG-01 strict settings sources', () => {
  it('refuses a misspelt key from the file, the environment and a flag, naming the source and the nearest key', async () => {
    const dir = await withFile({ 'yukta.execution.max-concurent': 1 });
    const file = join(dir, 'settings.json');
    expect(refusal({ dataDir: dir })).toBe(
      `unknown setting "yukta.execution.max-concurent" in settings file ${file}: did you mean yukta.execution.max-concurrent?`,
    );
    expect(refusal({ dataDir: null, env: { YUKTA_EXECUTION_MAX_CONCURENT: '1' } })).toBe(
      'unknown setting variable YUKTA_EXECUTION_MAX_CONCURENT in the environment: did you mean YUKTA_EXECUTION_MAX_CONCURRENT?',
    );
    expect(refusal({ dataDir: null, flags: ['yukta.execution.max-concurent=1'] })).toBe(
      'unknown setting "yukta.execution.max-concurent" in flag --set: did you mean yukta.execution.max-concurrent?',
    );
    expect(refusal({ dataDir: null, env: { YUKTA_START_IDEMPOTENCY_TL: '1m' } })).toBe(
      'unknown setting variable YUKTA_START_IDEMPOTENCY_TL in the environment: did you mean YUKTA_START_IDEMPOTENCY_TTL?',
    );
  });

  it('refuses an unknown key that is not even close, and a key outside yukta.*', async () => {
    expect(refusal({ dataDir: await withFile({ 'yukta.colour': 'blue' }) })).toMatch(
      /^unknown setting "yukta.colour" in settings file .*: did you mean yukta\.[a-z.-]+\?$/,
    );
    expect(refusal({ dataDir: await withFile({ theme: 'dark' }) })).toMatch(/^unknown setting "theme" in settings file /);
  });

  it('refuses a bad value from each source, naming the key, the source and what it accepts', async () => {
    const dir = await withFile({ 'yukta.execution.queue-timeout': 'soon' });
    expect(refusal({ dataDir: dir })).toBe(
      `setting yukta.execution.queue-timeout in settings file ${join(dir, 'settings.json')}: must be a duration such as 30s, 10m, 1h or a number of milliseconds, at most 2147483647ms (got "soon")`,
    );
    expect(refusal({ dataDir: null, env: { YUKTA_EXECUTION_MAX_CONCURRENT: 'lots' } })).toBe(
      'setting yukta.execution.max-concurrent in environment variable YUKTA_EXECUTION_MAX_CONCURRENT: must be a whole number from 0 to 10000000 (got "lots")',
    );
    expect(refusal({ dataDir: null, flags: ['yukta.execution.on-limit=WAIT'] })).toBe(
      'setting yukta.execution.on-limit in flag --set: must be one of QUEUE, REJECT (got "WAIT")',
    );
    expect(refusal({ dataDir: null, flags: ['yukta.process.enabled=yes'] })).toBe(
      'setting yukta.process.enabled in flag --set: must be true or false (got "yes")',
    );
    expect(refusal({ dataDir: await withFile({ 'yukta.api-keys': [{ name: 'a', key: 'short' }] }) })).toMatch(
      /^setting yukta\.api-keys\.0\.key in settings file .*: Too small/,
    );
    expect(refusal({ dataDir: null, flags: ['yukta.execution.max-concurrent'] })).toBe(
      'flag --set "yukta.execution.max-concurrent" must be written key=value, e.g. --set yukta.execution.max-concurrent=4',
    );
  });

  it('refuses a value even when a later source would replace it, and a bad SCL-02 lease', async () => {
    const dir = await withFile({ 'yukta.execution.max-concurrent': -1 });
    expect(refusal({ dataDir: dir, flags: ['yukta.execution.max-concurrent=2'] })).toMatch(/^setting yukta.execution.max-concurrent in settings file /);
    expect(refusal({ dataDir: null, flags: ['yukta.ha.lease=soon'] })).toMatch(/^setting yukta\.ha\.lease in flag --set: must be a duration/);
  });

  it('takes flag over environment over file over default, per key, and says where each value came from', async () => {
    const dir = await withFile({
      'yukta.execution.max-concurrent': 1,
      'yukta.execution.queue-capacity': 7,
      'yukta.execution.shutdown-timeout': '5s',
      'yukta.llm.rate-limit.openai': 60,
    });
    const file = join(dir, 'settings.json');
    const env = {
      YUKTA_EXECUTION_MAX_CONCURRENT: '2',
      YUKTA_EXECUTION_QUEUE_CAPACITY: '8',
      YUKTA_LLM_RATE_LIMIT_ANTHROPIC: '30',
      YUKTA_DATA_DIR: '/elsewhere',
      YUKTA_SECRET_TOKEN: 'x',
    };
    const s = loadSettings({ dataDir: dir, env, flags: ['yukta.execution.max-concurrent=3'] });
    expect(s.values['yukta.execution.max-concurrent']).toBe(3);
    expect(s.source('yukta.execution.max-concurrent')).toEqual({ kind: 'flag', name: '--set' });
    expect(s.values['yukta.execution.queue-capacity']).toBe(8);
    expect(s.source('yukta.execution.queue-capacity')).toEqual({ kind: 'env', name: 'YUKTA_EXECUTION_QUEUE_CAPACITY' });
    expect(s.values['yukta.execution.shutdown-timeout']).toBe(5000);
    expect(s.source('yukta.execution.shutdown-timeout')).toEqual({ kind: 'file', name: file });
    expect(s.values['yukta.execution.on-limit']).toBe('QUEUE');
    expect(s.source('yukta.execution.on-limit')).toEqual({ kind: 'default' });
    expect(s.values['yukta.llm.rate-limit']).toEqual({ openai: 60, anthropic: 30 });
    expect(s.source('yukta.llm.rate-limit.anthropic')).toEqual({ kind: 'env', name: 'YUKTA_LLM_RATE_LIMIT_ANTHROPIC' });
    expect(s.file).toBe(file);
  });
});
