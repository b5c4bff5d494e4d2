import { z } from 'zod';
import { Role } from '../api/roles';
import { ApiKeyName } from '../api/security.schema';
import { Identifier } from '../workflow/identifier';
import { familySetting, optionalSetting, setting } from './setting-spec';
import { MIB, live, restart } from './settings-row-presets';
import { DURABILITY_SETTINGS } from './settings-table-rows-durability';
import { SCALE_OUT_SETTINGS } from './settings-table-rows-scale-out';
import { bytes, choice, count, duration, flag, json, positiveNumber, text, textList } from './setting-values';

/** One configured API key (SEC-01): plain text of at least 16 characters, or `sha256:<64 hex>`. */
export const ApiKeyConfig = z.strictObject({
  name: ApiKeyName,
  key: z.string().min(16),
  role: Role.default('VIEWER'),
  sessions: z.array(Identifier).min(1).optional(),
});
export type ApiKeyConfig = z.infer<typeof ApiKeyConfig>;

const apiKeys = json(z.array(ApiKeyConfig), 'a JSON array of {name, key, role, sessions}', (keys) =>
  Array.isArray(keys) && keys.length ? `${keys.length} key(s)` : '[]',
);

/**
 * Every `yukta.*` setting (CFG-01): key, schema, default, unit, environment name (derived from the key),
 * live or at restart, the role that may change it, its Settings-screen group, the card and one line. The
 * settings file, the environment, `--set` flags, `settings.get`/`settings.set`, the Settings screen and the
 * reference page's table are all read from here; nothing else names a key with its default. The Durability
 * and Scale-out rows live in settings-table-rows-*.ts and are spread in here in their place (order is kept).
 */
export const SETTINGS = {
  // Admission (ADM-01): changed live, recorded in the execution log (ADM-03).
  'yukta.execution.max-concurrent': setting({
    value: count(),
    default: 0,
    ...live,
    group: 'Admission',
    card: 'ADM-01',
    description: 'Concurrent executions in total (0 = off).',
  }),
  'yukta.execution.max-concurrent-per-workflow': setting({
    value: count(),
    default: 0,
    ...live,
    group: 'Admission',
    card: 'ADM-01',
    description: 'Concurrent executions of one workflow (0 = off).',
  }),
  'yukta.execution.max-concurrent-per-session': setting({
    value: count(),
    default: 0,
    ...live,
    group: 'Admission',
    card: 'ADM-01',
    description: 'Concurrent executions of one session (0 = off).',
  }),
  'yukta.execution.on-limit': setting({
    value: choice(['QUEUE', 'REJECT']),
    default: 'QUEUE',
    ...live,
    group: 'Admission',
    card: 'ADM-01',
    description: 'A start over a cap waits (QUEUE) or is refused with 429 (REJECT).',
  }),
  'yukta.execution.queue-capacity': setting({
    value: count(),
    default: 100,
    ...live,
    group: 'Admission',
    card: 'ADM-01',
    description: 'Starts that may wait; beyond it 429 QUEUE_FULL.',
  }),
  'yukta.execution.queue-capacity-per-workflow': setting({
    value: count(),
    default: 0,
    ...live,
    group: 'Admission',
    card: 'ADM-01',
    description: 'Starts of one workflow that may wait (0 = off).',
  }),
  'yukta.execution.queue-timeout': setting({
    value: duration(),
    default: 0,
    ...live,
    group: 'Admission',
    card: 'ADM-01',
    description: 'A start that waits longer ends TIMED_OUT (0 = off).',
  }),
  'yukta.execution.shutdown-timeout': setting({
    value: duration(),
    default: 30_000,
    ...live,
    group: 'Admission',
    card: 'ADM-01',
    description: 'Time running executions get to finish on shutdown before they are killed.',
  }),
  'yukta.start.idempotency-ttl': setting({
    value: duration(),
    default: 600_000,
    ...restart,
    group: 'Admission',
    card: 'ADM-02',
    description: "How long a start's Idempotency-Key returns the first execution.",
  }),
  'yukta.start.idempotency-max-keys': setting({
    value: count(1),
    default: 100_000,
    ...restart,
    group: 'Admission',
    card: 'ADM-02',
    description: 'Idempotency keys remembered; the oldest is evicted beyond it.',
  }),
  // Definitions and the control plane.
  'yukta.definitions.max-versions': setting({
    value: count(1, 10_000),
    default: 20,
    ...restart,
    group: 'Definitions',
    card: 'DEF-01',
    description: 'Newest versions kept per workflow; older ones are deleted at the next save.',
  }),
  'yukta.supervisor.max-commands-per-second': setting({
    value: count(1, 100_000),
    default: 20,
    ...restart,
    group: 'Control plane',
    card: 'CTL-07',
    description: 'Commands one supervisor may send per second; the rest are dropped and counted.',
  }),
  'yukta.supervisor.dry-run': setting({
    value: flag(),
    default: false,
    ...restart,
    group: 'Control plane',
    card: 'CTL-07',
    description: "Supervisors' commands are recorded, not applied.",
  }),
  // Tracker (OBS-01).
  'yukta.tracker.cleanup-ttl': setting({
    value: duration(),
    default: 600_000,
    ...restart,
    group: 'Tracker',
    card: 'OBS-01',
    description: 'A finished run leaves live state this long after it ends (it stays in history).',
  }),
  'yukta.tracker.max-sessions': setting({
    value: count(),
    default: 0,
    ...restart,
    group: 'Tracker',
    card: 'OBS-01',
    description: 'Sessions with live state; beyond it the oldest without a running run is evicted (0 = off).',
  }),
  'yukta.tracker.status-history-max-per-run': setting({
    value: count(1, 100_000),
    default: 200,
    ...restart,
    group: 'Tracker',
    card: 'OBS-01',
    description: 'Progress snapshots kept per run for late subscribers.',
  }),
  'yukta.tracker.status-history-max-executions': setting({
    value: count(1, 1_000_000),
    default: 1000,
    ...restart,
    group: 'Tracker',
    card: 'OBS-01',
    description: 'Runs kept in memory for runs.get, runs.list and their history.',
  }),
  ...DURABILITY_SETTINGS,
  // Security (SEC-01, SEC-02).
  'yukta.api-key': optionalSetting({
    value: text(16),
    ...restart,
    group: 'Security',
    card: 'SEC-01',
    secret: true,
    description: 'One all-powerful (ADMIN) API key, named default; plain or sha256:<hex>.',
  }),
  'yukta.api-keys': setting({
    value: apiKeys,
    default: [],
    ...restart,
    group: 'Security',
    card: 'SEC-01',
    secret: true,
    description: 'Named API keys with a role and optional sessions; several at once for rotation.',
  }),
  'yukta.secrets.key': optionalSetting({
    value: text(16),
    ...restart,
    group: 'Security',
    card: 'SEC-02',
    secret: true,
    description:
      'Where no OS keychain exists (serve, yukta mcp), secrets set in the studio are sealed with this key in <data>/secrets.json (AES-256-GCM); unset, they come from YUKTA_SECRET_* only. Keep it in the environment, not in settings.json beside them.',
  }),
  'yukta.variables.allowed': setting({
    value: textList(),
    default: [],
    ...restart,
    group: 'Security',
    card: 'SEC-02',
    description: 'Extra names ${env.X} and ${sys.x} may read (names that look like secrets stay blocked).',
  }),
  'yukta.var': familySetting({
    value: text(0),
    ...restart,
    group: 'Security',
    card: 'SEC-02',
    family: { placeholder: '*', member: /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/, recordKey: 'key', fromEnv: false },
    description: 'A value readable as ${sys.yukta.var.x} (YUKTA_VAR_* variables are read directly as ${env.X}).',
  }),
  // Execution safety (SEC-03).
  'yukta.execution.max-message-bytes': setting({
    value: bytes(1024),
    default: 10 * MIB,
    ...restart,
    group: 'Execution safety',
    card: 'SEC-03',
    description: 'Largest start payload and message.',
  }),
  'yukta.execution.max-depth': setting({
    value: count(1, 10_000),
    default: 128,
    ...restart,
    group: 'Execution safety',
    card: 'SEC-03',
    description: 'Deepest JSON nesting accepted at every boundary (bodies, payloads, files, plugin outputs).',
  }),
  'yukta.process.enabled': setting({
    value: flag(),
    default: false,
    ...restart,
    group: 'Execution safety',
    card: 'SEC-03',
    description: 'PROCESS_EXECUTOR may run allow-listed commands.',
  }),
  'yukta.process.allowed-commands': setting({
    value: textList(),
    default: [],
    ...restart,
    group: 'Execution safety',
    card: 'SEC-03',
    description: 'Absolute paths PROCESS_EXECUTOR may run (no shell).',
  }),
  'yukta.http.allow-private': setting({
    value: flag(),
    default: false,
    ...restart,
    group: 'Execution safety',
    card: 'SEC-03',
    description: 'HTTP_REQUEST, LLM_CALL and MCP_TOOL_CALL may reach loopback, private and link-local addresses.',
  }),
  'yukta.http.allowed-addresses': setting({
    value: textList(),
    default: [],
    ...restart,
    group: 'Execution safety',
    card: 'SEC-03',
    description: 'Addresses or CIDR ranges allowed although private.',
  }),
  'yukta.http.max-response-bytes': setting({
    value: bytes(1024),
    default: 10 * MIB,
    ...restart,
    group: 'Execution safety',
    card: 'SEC-03',
    description: 'Largest HTTP response body a plugin reads.',
  }),
  'yukta.http.max-redirects': setting({
    value: count(0, 20),
    default: 5,
    ...restart,
    group: 'Execution safety',
    card: 'SEC-03',
    description: 'Redirects an HTTP request follows.',
  }),
  // The HTTP API (serve mode always serves it).
  'yukta.http.enabled': setting({
    value: flag(),
    default: false,
    ...restart,
    group: 'HTTP API',
    card: 'SEC-01',
    description: 'The desktop app also serves the REST + SSE API on 127.0.0.1 (serve mode always does).',
  }),
  'yukta.http.port': setting({
    value: count(0, 65_535),
    default: 4310,
    ...restart,
    group: 'HTTP API',
    card: 'SEC-01',
    description: "Port of the HTTP API (desktop and serve; serve's --port wins; 0 picks a free one).",
  }),
  'yukta.http.cors-origins': setting({
    value: textList(z.string().regex(/^https?:\/\/[^/\s]+$/, 'an origin: scheme://host[:port], no path'), 'origins scheme://host[:port]'),
    default: [],
    ...restart,
    group: 'HTTP API',
    card: 'STU-08',
    description: 'Origins whose pages may call the API cross-origin while API keys are required (a browser studio connecting to this server).',
  }),
  // LLM (EXT-03).
  'yukta.llm.rate-limit': familySetting({
    value: positiveNumber(),
    ...restart,
    group: 'LLM',
    card: 'EXT-03',
    family: { placeholder: '<provider>', member: /^[a-z0-9][a-z0-9_-]{0,63}$/, recordKey: 'member', fromEnv: true },
    description: 'Requests per minute to one LLM provider, spaced across all runs.',
  }),
  ...SCALE_OUT_SETTINGS,
};

export type SettingsTable = typeof SETTINGS;
export type SettingKey = keyof SettingsTable;
