import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SECRET_MASK } from '../../shared/api/security.schema';
import { parseHostSettings } from './host-settings';
import { closeHosts, failure, openHost, tempDataDir } from './host-test-support';
import { passphraseEncryptor } from './passphrase-encryptor';
import { SECRETS_FILE } from './secret-store';

const KEY = 'operator-key-7c1e9a40b2d85f36';
const VALUE = 'sk-canary-4d0b7e92a1f6c538';

afterEach(closeHosts);

describe('SEC-02 secrets sealed under yukta.secrets.key (serve mode, yukta mcp)', () => {
  it('opens what it sealed; the same value seals differently each time; another key is refused, not garbled', () => {
    const sealer = passphraseEncryptor(KEY);
    const a = sealer.encryptString(VALUE);
    const b = sealer.encryptString(VALUE);
    expect(a.equals(b)).toBe(false);
    expect(a.toString('latin1')).not.toContain(VALUE);
    expect(sealer.decryptString(a)).toBe(VALUE);
    expect(passphraseEncryptor(KEY).decryptString(b)).toBe(VALUE);
    expect(() => passphraseEncryptor('another-key-0123456789').decryptString(a)).toThrow(
      'a stored secret does not open with yukta.secrets.key (it was stored under another key)',
    );
    const tampered = Buffer.from(a);
    tampered[tampered.length - 1]! ^= 1;
    expect(() => sealer.decryptString(tampered)).toThrow('does not open');
    expect(() => sealer.decryptString(Buffer.from('plain'))).toThrow('not in the format');
  });

  it('a host with the key stores secrets (ciphertext only on disk, masked in every listing), and a restart with the same key reads them', async () => {
    const dataDir = await tempDataDir();
    const settings = parseHostSettings({ 'yukta.secrets.key': KEY });
    const { host, api } = openHost({ dataDir, store: 'memory', settings, env: {} });
    expect(await api['secrets.set']({ name: 'openai', value: VALUE })).toEqual({ name: 'openai', source: 'store', value: SECRET_MASK, writable: true });
    expect(await api['secrets.list']({})).toEqual([{ name: 'openai', source: 'store', value: SECRET_MASK, writable: true }]);
    expect(readFileSync(join(dataDir, SECRETS_FILE), 'utf8')).not.toContain(VALUE);
    expect(JSON.stringify(await api['settings.get']({}))).not.toContain(KEY);
    await host.close();

    const again = openHost({ dataDir, store: 'memory', settings, env: {} });
    expect(again.host.secretStore.get('openai')).toBe(VALUE);
    await again.api['secrets.delete']({ name: 'openai' });
    expect(await again.api['secrets.list']({})).toEqual([]);
  });

  it('without the key a host without a keychain refuses to store one, naming the ways to give it', async () => {
    const { api } = openHost({ dataDir: await tempDataDir(), store: 'memory', env: {} });
    const refused = await failure(api['secrets.set']({ name: 'openai', value: VALUE }));
    expect(refused.code).toBe('UNAVAILABLE');
    expect(refused.message).toBe(
      'secrets are stored only where they can be encrypted: in the desktop app (OS keychain), or with yukta.secrets.key set (YUKTA_SECRETS_KEY); here set YUKTA_SECRET_OPENAI in the environment',
    );
  });
});
