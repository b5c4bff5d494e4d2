import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ApiKeyRegistry, keyDigest, sha256 } from './api-keys';
import { tempDataDir } from './host-test-support';
import { configuredApiKeys, envNameOf, loadHostSettings, parseHostSettings } from './host-settings';

describe('SEC-01 settings source: <data>/settings.json and the environment', () => {
  it('has safe defaults: no keys, private networks and processes off, 10 MiB messages', () => {
    const s = parseHostSettings({});
    expect(s['yukta.api-keys']).toEqual([]);
    expect(s['yukta.http.allow-private']).toBe(false);
    expect(s['yukta.process.enabled']).toBe(false);
    expect(s['yukta.execution.max-message-bytes']).toBe(10 * 1024 * 1024);
  });

  it('reads the file, lets the environment win, and gathers yukta.llm.rate-limit.<provider> and yukta.var.*', async () => {
    const dir = await tempDataDir();
    writeFileSync(
      join(dir, 'settings.json'),
      JSON.stringify({ 'yukta.process.enabled': true, 'yukta.llm.rate-limit.openai': 60, 'yukta.var.region': 'eu', 'yukta.execution.max-concurrent': 4 }),
    );
    const s = loadHostSettings(dir, {
      YUKTA_PROCESS_ENABLED: 'false',
      YUKTA_VARIABLES_ALLOWED: 'A, B',
      YUKTA_LLM_RATE_LIMIT_ANTHROPIC: '30',
      YUKTA_API_KEY: 'env-admin-key-0123456789',
    });
    expect(s['yukta.process.enabled']).toBe(false);
    expect(s['yukta.variables.allowed']).toEqual(['A', 'B']);
    // CFG-01: precedence is per key, so YUKTA_LLM_RATE_LIMIT_ANTHROPIC adds a provider beside the file's openai.
    expect(s['yukta.llm.rate-limit']).toEqual({ openai: 60, anthropic: 30 });
    expect(s['yukta.var']).toEqual({ 'yukta.var.region': 'eu' });
    expect(configuredApiKeys(s, { YUKTA_API_KEY: 'x' })).toEqual([{ name: 'default', key: 'env-admin-key-0123456789', role: 'ADMIN', source: 'environment' }]);
    expect(envNameOf('yukta.http.allow-private')).toBe('YUKTA_HTTP_ALLOW_PRIVATE');
  });

  it('refuses a misspelt setting of its own (a typo must not leave a protection off) and names bad values', () => {
    expect(() => parseHostSettings({ 'yukta.http.allow-privat': true })).toThrow(/unknown setting "yukta.http.allow-privat"/);
    expect(() => parseHostSettings({ 'yukta.api-keys': [{ name: 'a', key: 'short', role: 'ADMIN' }] })).toThrow(/yukta.api-keys.0.key/);
    expect(() => parseHostSettings({ 'yukta.process.enabled': 'yes' })).toThrow(/yukta.process.enabled/);
  });
});

describe('SEC-01 key comparison', () => {
  it('accepts plain and sha256:<hex> keys, refuses short or malformed ones, and names the caller key:<name>', () => {
    const registry = new ApiKeyRegistry([
      { name: 'plain', key: 'plain-key-0123456789', role: 'VIEWER', source: 'settings' },
      { name: 'hashed', key: `sha256:${sha256('hashed-key-0123456789').toString('hex')}`, role: 'OPERATOR', sessions: ['a'], source: 'settings' },
    ]);
    expect(registry.authenticate('plain-key-0123456789')).toEqual({ actor: 'key:plain', role: 'VIEWER' });
    expect(registry.authenticate('hashed-key-0123456789')).toEqual({ actor: 'key:hashed', role: 'OPERATOR', sessions: ['a'] });
    expect(registry.authenticate('plain-key-012345678')).toBeNull();
    expect(registry.authenticate(`sha256:${sha256('hashed-key-0123456789').toString('hex')}`)).toBeNull();
    expect(() => keyDigest('short')).toThrow(/16 characters/);
    expect(() => keyDigest('sha256:abc')).toThrow(/64 hex/);
  });
});
