// The Scale-out group of the settings table (SCL-01 remote workers, SCL-02 high availability), spread into SETTINGS in settings-table.ts.
import { z } from 'zod';
import { DEFAULT_WORKERS_PATH } from '../workers/worker-protocol';
import { optionalSetting, setting } from './setting-spec';
import { restart } from './settings-row-presets';
import { choice, count, duration, flag, text, textList } from './setting-values';

const ha = { ...restart, group: 'Scale-out', card: 'SCL-02' } as const;
const workers = { ...restart, group: 'Scale-out', card: 'SCL-01' } as const;
/** A URL path: `/` and then letters, digits and `._~-/`. */
const urlPath = {
  ...text(),
  accepts: 'a path such as /workers',
  schema: z.string({ error: 'must be a path such as /workers' }).regex(/^\/[A-Za-z0-9._~/-]*$/, 'must be a path such as /workers'),
};

export const SCALE_OUT_SETTINGS = {
  // Remote workers (SCL-01): the host's listener, and the worker process (`yukta worker`) reading the same keys.
  'yukta.workers.enabled': setting({
    value: flag(),
    default: false,
    ...workers,
    description: 'This host takes remote workers on its own listener (yukta.workers.host, port and path); needs yukta.workers.token.',
  }),
  'yukta.workers.host': setting({
    value: text(),
    default: '127.0.0.1',
    ...workers,
    description: "Address the workers' listener binds to (0.0.0.0 for other machines).",
  }),
  'yukta.workers.port': setting({ value: count(0, 65_535), default: 4320, ...workers, description: "Port of the workers' listener (0 picks a free one)." }),
  'yukta.workers.path': setting({
    value: urlPath,
    default: DEFAULT_WORKERS_PATH,
    ...workers,
    description: 'Path workers connect to on the listener (ws://host:port/path).',
  }),
  'yukta.workers.token': optionalSetting({
    value: text(16),
    ...workers,
    secret: true,
    description:
      'Shared token: the host accepts only workers presenting it (compared in constant time); a worker presents it (or --token, YUKTA_WORKER_TOKEN).',
  }),
  'yukta.workers.lease': setting({
    value: duration(),
    default: 15_000,
    ...workers,
    description: 'A worker that does not renew its registration within this is dropped; workers renew three times per lease.',
  }),
  'yukta.workers.window': setting({
    value: count(1, 100_000),
    default: 16,
    ...workers,
    description: 'Messages of one attempt either side holds before the other must wait for credit (back-pressure).',
  }),
  'yukta.workers.drain-timeout': setting({
    value: duration(),
    default: 30_000,
    ...workers,
    description: 'A worker stopping (SIGTERM) finishes its attempts within this, then ends those left (retryably) and exits.',
  }),
  'yukta.workers.control-plane': setting({
    value: textList(z.string().regex(/^wss?:\/\/\S+$/, 'a ws:// or wss:// address'), 'ws:// or wss:// addresses'),
    default: [],
    ...workers,
    description: 'Host addresses a worker tries in turn (a standby refuses it; --control-plane wins).',
  }),
  'yukta.workers.tls.cert': optionalSetting({
    value: text(),
    ...workers,
    description: "PEM certificate file: the host's listener serves wss with it; a worker presents it for mutual TLS.",
  }),
  'yukta.workers.tls.key': optionalSetting({ value: text(), ...workers, description: 'PEM private key file of yukta.workers.tls.cert.' }),
  'yukta.workers.tls.ca': optionalSetting({
    value: text(),
    ...workers,
    description: 'PEM CA file: a worker verifies the host (and its name) with it; the host then requires worker certificates it signed (mutual TLS).',
  }),
  // High availability (SCL-02): an active/standby pair on one PostgreSQL database.
  'yukta.ha.mode': setting({
    value: choice(['single', 'postgres']),
    default: 'single',
    ...ha,
    description:
      "single: this server is always leader; postgres: a leader lease in the postgres store's database (needs --store postgres): one host leads, the others stand by read-only and take over when its lease runs out.",
  }),
  'yukta.ha.lease': setting({
    value: duration(),
    default: 15_000,
    ...ha,
    description:
      "How long a leader's lease lasts without renewal; it is renewed three times per lease, and a standby takes over within the lease plus a third of it after the leader dies.",
  }),
  'yukta.ha.host-name': optionalSetting({
    value: text(1),
    ...ha,
    description: 'The name other hosts show as "leader is <name>" (unset: the machine\'s host name and the process id).',
  }),
  'yukta.ha.advertised-url': optionalSetting({
    value: text(1, { regex: /^https?:\/\/\S+$/, what: 'an http:// or https:// address' }),
    ...ha,
    description: 'The address a standby names for its leader (unset: the name alone).',
  }),
};
