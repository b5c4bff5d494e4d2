import { resolve } from 'node:path';
import type { SettingsValues } from '../../shared/settings/settings-lookup';
import { SettingsError } from '../host/settings-sources';
import type { ListenerTls } from './worker-listener';

/** Where and how the host takes workers (SCL-01), from the settings. */
export interface ListenerSettings {
  host: string;
  port: number;
  path: string;
  token: string;
  tls?: ListenerTls;
}

/**
 * The listener's settings, or null when `yukta.workers.enabled` is false. A listener without a token, or half a
 * TLS configuration, is refused at start-up naming the key (files are relative to the working folder).
 */
export function listenerSettingsOf(settings: SettingsValues): ListenerSettings | null {
  if (!settings['yukta.workers.enabled']) return null;
  const token = settings['yukta.workers.token'];
  if (token === undefined)
    throw new SettingsError('setting yukta.workers.enabled needs yukta.workers.token: workers must present a shared token (at least 16 characters)');
  const tls = tlsOf(settings, 'host');
  return { host: settings['yukta.workers.host'], port: settings['yukta.workers.port'], path: settings['yukta.workers.path'], token, ...(tls ? { tls } : {}) };
}

/** TLS files as a worker uses them: ca to verify the host, cert and key presented for mutual TLS. */
export interface WorkerTls {
  ca?: string;
  cert?: string;
  key?: string;
}

/**
 * TLS files of either side (relative to the working folder): the host serves with cert and key (and requires
 * worker certificates signed by ca); a worker trusts ca for the host and presents cert and key for mutual TLS.
 */
export function tlsOf(settings: SettingsValues, side: 'host'): ListenerTls | null;
export function tlsOf(settings: SettingsValues, side: 'worker'): WorkerTls | null;
export function tlsOf(settings: SettingsValues, side: 'host' | 'worker'): ListenerTls | WorkerTls | null {
  const cert = settings['yukta.workers.tls.cert'];
  const key = settings['yukta.workers.tls.key'];
  const ca = settings['yukta.workers.tls.ca'];
  if ((cert === undefined) !== (key === undefined)) {
    const [set, missing] = cert === undefined ? ['yukta.workers.tls.key', 'yukta.workers.tls.cert'] : ['yukta.workers.tls.cert', 'yukta.workers.tls.key'];
    throw new SettingsError(`setting ${set} needs ${missing}: a certificate goes with its key`);
  }
  const files = { ...(cert ? { cert: resolve(cert), key: resolve(key!) } : {}), ...(ca ? { ca: resolve(ca) } : {}) };
  if (side === 'worker') return cert || ca ? files : null;
  if (cert === undefined) {
    if (ca !== undefined)
      throw new SettingsError('setting yukta.workers.tls.ca needs yukta.workers.tls.cert and yukta.workers.tls.key on the host: mutual TLS is TLS first');
    return null;
  }
  return { cert: resolve(cert), key: resolve(key!), ...(ca ? { ca: resolve(ca) } : {}) };
}
