import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseHostSettings } from '../host/host-settings';
import { StudioHost } from '../host/studio-host';
import { listenerSettingsOf, tlsOf } from './listener-settings';

const TOKEN = 'a-shared-token-0123';

describe("SCL-01 CFG-01 the workers' settings", () => {
  it('opens no listener unless yukta.workers.enabled, and refuses one without a token or with half a TLS pair', () => {
    expect(listenerSettingsOf(parseHostSettings({}))).toBeNull();
    expect(() => listenerSettingsOf(parseHostSettings({ 'yukta.workers.enabled': true }))).toThrow(
      'setting yukta.workers.enabled needs yukta.workers.token: workers must present a shared token (at least 16 characters)',
    );
    expect(listenerSettingsOf(parseHostSettings({ 'yukta.workers.enabled': true, 'yukta.workers.token': TOKEN, 'yukta.workers.port': 4599 }))).toEqual({
      host: '127.0.0.1',
      port: 4599,
      path: '/workers',
      token: TOKEN,
    });
    const half = parseHostSettings({ 'yukta.workers.enabled': true, 'yukta.workers.token': TOKEN, 'yukta.workers.tls.cert': 'c.pem' });
    expect(() => listenerSettingsOf(half)).toThrow('setting yukta.workers.tls.cert needs yukta.workers.tls.key: a certificate goes with its key');
    const caOnly = parseHostSettings({ 'yukta.workers.enabled': true, 'yukta.workers.token': TOKEN, 'yukta.workers.tls.ca': 'ca.pem' });
    expect(() => listenerSettingsOf(caOnly)).toThrow(
      'setting yukta.workers.tls.ca needs yukta.workers.tls.cert and yukta.workers.tls.key on the host: mutual TLS is TLS first',
    );
    expect(tlsOf(caOnly, 'worker')).toEqual({ ca: resolve('ca.pem') });
    const full = parseHostSettings({ 'yukta.workers.tls.cert': 'c.pem', 'yukta.workers.tls.key': 'k.pem', 'yukta.workers.tls.ca': 'ca.pem' });
    expect(tlsOf(full, 'host')).toEqual({ cert: resolve('c.pem'), key: resolve('k.pem'), ca: resolve('ca.pem') });
  });

  it('refuses a token shorter than 16 characters, a path without its slash and an address that is not ws:// or wss://', () => {
    expect(() => parseHostSettings({ 'yukta.workers.token': 'short' })).toThrow(
      /^setting yukta\.workers\.token in host option: must be text of at least 16 characters/,
    );
    expect(() => parseHostSettings({ 'yukta.workers.path': 'workers' })).toThrow(
      /^setting yukta\.workers\.path in host option: must be a path such as \/workers/,
    );
    expect(() => parseHostSettings({ 'yukta.workers.control-plane': ['http://x'] })).toThrow(
      /^setting yukta\.workers\.control-plane\.0 in host option: a ws:\/\/ or wss:\/\/ address/,
    );
  });

  it('gives the engine the lease, the window and the message limits from the settings', async () => {
    const host = new StudioHost({
      settings: parseHostSettings({
        'yukta.workers.lease': '5s',
        'yukta.workers.window': 32,
        'yukta.execution.max-message-bytes': '1MiB',
        'yukta.execution.max-depth': 64,
      }),
    });
    const { leaseMs, window, maxMessageBytes, maxDepth, maxFrameBytes } = host.engine.workers;
    expect({ leaseMs, window, maxMessageBytes, maxDepth, maxFrameBytes }).toEqual({
      leaseMs: 5000,
      window: 32,
      maxMessageBytes: 1024 * 1024,
      maxDepth: 64,
      maxFrameBytes: 1024 * 1024 + 64 * 1024,
    });
    expect(host.engine.workersView()).toMatchObject({ listener: null, leaseMs: 5000, pools: [], workers: [] });
    await host.close();
  });
});
