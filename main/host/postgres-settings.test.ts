import { afterEach, describe, expect, it } from 'vitest';
import { SETTINGS } from '../../shared/settings/settings-table';
import { closeHosts, openHost } from './host-test-support';
import { loadHostSettings, parseHostSettings } from './host-settings';
import { loadSettings } from './loaded-settings';
import { postgresConnectionOf } from './postgres-settings';
import { NO_SECRET_STORE, type SecretStore } from './secret-store';
import { STORE_KINDS } from './studio-host';

const URL_A = 'postgres://app:pw@db.example:5432/yukta';
const stored = (values: Record<string, string>): SecretStore => ({ ...NO_SECRET_STORE, names: () => Object.keys(values), get: (name) => values[name] });

afterEach(closeHosts);

describe('DUR-04 PostgreSQL settings: yukta.store, yukta.postgres.*', () => {
  it('defaults: no store kind (SQLite with a data folder), pool of 10, 30 s statement timeout, schema public', () => {
    const s = parseHostSettings({});
    expect([
      s['yukta.store'],
      s['yukta.postgres.url'],
      s['yukta.postgres.pool-size'],
      s['yukta.postgres.statement-timeout'],
      s['yukta.postgres.schema'],
    ]).toEqual([undefined, undefined, 10, 30_000, 'public']);
  });

  it('reads the environment (YUKTA_STORE, YUKTA_POSTGRES_URL, …) over the file, and refuses bad values naming the key', async () => {
    const s = loadHostSettings(null, {
      YUKTA_STORE: 'postgres',
      YUKTA_POSTGRES_URL: URL_A,
      YUKTA_POSTGRES_POOL_SIZE: '4',
      YUKTA_POSTGRES_STATEMENT_TIMEOUT: '0',
      YUKTA_POSTGRES_SCHEMA: 'team_a',
    });
    expect(postgresConnectionOf(s, NO_SECRET_STORE, {})).toEqual({ url: URL_A, poolSize: 4, statementTimeoutMs: 0, schema: 'team_a' });
    expect(s['yukta.store']).toBe('postgres');
    expect(() => parseHostSettings({ 'yukta.store': 'oracle' })).toThrow(/yukta\.store/);
    expect(() => parseHostSettings({ 'yukta.postgres.pool-size': 0 })).toThrow(/yukta\.postgres\.pool-size/);
    // The settings table's refusal (CFG-01): `setting <key> in <source>: must be <what it accepts> (got …)`.
    expect(() => parseHostSettings({ 'yukta.postgres.schema': 'Team-A' })).toThrow(/yukta\.postgres\.schema in .*: must be a schema name: lower-case letters/);
    expect(() => parseHostSettings({ 'yukta.postgres.uri': URL_A })).toThrow(/unknown setting "yukta\.postgres\.uri"/);
  });

  it('yukta.store accepts exactly the store kinds the host opens', () => {
    expect(SETTINGS['yukta.store'].value.accepts).toBe(`one of ${STORE_KINDS.join(', ')}`);
    for (const kind of STORE_KINDS) expect(parseHostSettings({ 'yukta.store': kind })['yukta.store']).toBe(kind);
  });

  it('statement-timeout is a duration (CFG-01): 5s is 5000 ms; settings.get masks the URL like an API key and never shows it', async () => {
    expect(parseHostSettings({ 'yukta.postgres.statement-timeout': '5s' })['yukta.postgres.statement-timeout']).toBe(5000);
    const settings = loadSettings({ dataDir: null, env: { YUKTA_POSTGRES_URL: URL_A } });
    const { api } = openHost({ settings, env: {} });
    const view = await api['settings.get']({});
    expect(view.settings.find((e) => e.key === 'yukta.postgres.url')).toMatchObject({
      value: '••••',
      shown: '••••',
      secret: true,
      source: { kind: 'env', name: 'YUKTA_POSTGRES_URL' },
    });
    expect(view.settings.find((e) => e.key === 'yukta.postgres.statement-timeout')).toMatchObject({
      value: 30_000,
      shown: '30s',
      unit: 'duration',
      card: 'DUR-04',
    });
    expect(JSON.stringify(view)).not.toContain('pw@');
  });

  it('resolves decrypted:<name> from the secret store first, then YUKTA_SECRET_<NAME>; names a missing secret, never the value', () => {
    const s = parseHostSettings({ 'yukta.postgres.url': 'decrypted:pg' });
    expect(postgresConnectionOf(s, stored({ pg: URL_A }), { YUKTA_SECRET_PG: 'postgres://other/x' }).url).toBe(URL_A);
    expect(postgresConnectionOf(s, NO_SECRET_STORE, { YUKTA_SECRET_PG: URL_A }).url).toBe(URL_A);
    expect(() => postgresConnectionOf(s, NO_SECRET_STORE, { YUKTA_SECRET_PG: '' })).toThrow(
      'yukta.postgres.url: the secret "pg" is not set (store it in the studio, or set YUKTA_SECRET_PG)',
    );
    const notAUrl = parseHostSettings({ 'yukta.postgres.url': 'decrypted:pg' });
    expect(() => postgresConnectionOf(notAUrl, stored({ pg: 'mysql://app:pw@x/y' }), {})).toThrow(
      /^yukta\.postgres\.url \(secret "pg"\) must be a postgres:\/\/ or postgresql:\/\/ URL$/,
    );
    expect(() => postgresConnectionOf(parseHostSettings({}), NO_SECRET_STORE, {})).toThrow(/needs yukta\.postgres\.url/);
  });
});
