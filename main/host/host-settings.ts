import { join, resolve } from 'node:path';
import { z } from 'zod';
import { Role } from '../../shared/api/roles';
import { ApiKeyName } from '../../shared/api/security.schema';
import { Identifier } from '../../shared/workflow/identifier';
import { joinPath } from '../../shared/workflow/validation-issue';
import { STORE_KINDS, type DurabilitySettings, type SecuritySettingsPatch } from '../../engine/index';
import type { ConfiguredApiKey } from './api-keys';
import { readJsonFile } from './json-file';

/** The host's settings file in the data folder: flat `yukta.*` keys, e.g. `{"yukta.process.enabled": true}`. */
export const SETTINGS_FILE = 'settings.json';
const MIB = 1024 * 1024;

const ApiKeyConfig = z.strictObject({
  name: ApiKeyName,
  /** Plain text (at least 16 characters) or `sha256:<64 hex>`. */
  key: z.string().min(16),
  role: Role.default('VIEWER'),
  sessions: z.array(Identifier).min(1).optional(),
});

/** Every setting the host reads, with its default (SEC-01..03, EXT-03, DUR-01..03). */
export const HostSettings = z.object({
  'yukta.api-key': z.string().min(16).optional(),
  'yukta.api-keys': z.array(ApiKeyConfig).default([]),
  'yukta.http.enabled': z.boolean().optional(),
  'yukta.http.port': z.number().int().min(0).max(65535).optional(),
  'yukta.http.allow-private': z.boolean().default(false),
  'yukta.http.allowed-addresses': z.array(z.string().min(1)).default([]),
  'yukta.http.max-response-bytes': z.number().int().min(1024).default(10 * MIB),
  'yukta.http.max-redirects': z.number().int().min(0).max(20).default(5),
  'yukta.process.enabled': z.boolean().default(false),
  'yukta.process.allowed-commands': z.array(z.string().min(1)).default([]),
  'yukta.variables.allowed': z.array(z.string().min(1)).default([]),
  'yukta.execution.max-message-bytes': z.number().int().min(1024).default(10 * MIB),
  /** `yukta.llm.rate-limit.<provider>`: requests per minute, gathered from the flat keys. */
  'yukta.llm.rate-limit': z.record(z.string(), z.number().positive()).default({}),
  /** `yukta.var.*`: values readable as `${sys.yukta.var.x}`. */
  'yukta.var': z.record(z.string(), z.string()).default({}),
  // Durability (DUR-01…03): the execution log, checkpoints, resume. Relative folders are under the data folder.
  'yukta.execution-log.dir': z.string().min(1).optional(),
  'yukta.execution-log.fsync': z.boolean().default(false),
  'yukta.execution-log.retained-runs': z.number().int().min(1).default(1000),
  'yukta.execution-log.compact-after': z.number().int().min(1).default(10_000),
  'yukta.restart.dir': z.string().min(1).optional(),
  'yukta.restart.spill-dir': z.string().min(1).optional(),
  'yukta.restart.auto-resume': z.boolean().default(false),
  'yukta.restart.retained-executions': z.number().int().min(0).default(100),
  'yukta.restart.max-messages-per-node': z.number().int().min(1).default(10_000),
  'yukta.restart.max-bytes-per-node': z.number().int().min(1).default(16 * MIB),
  // Tracker (OBS-01): live state of finished runs kept this many milliseconds; sessions with live state (0 = no cap).
  'yukta.tracker.cleanup-ttl': z.number().int().min(0).default(10 * 60_000),
  'yukta.tracker.max-sessions': z.number().int().min(0).default(0),
  // Stores (DUR-04): the kind (`--store` wins), and the PostgreSQL database of the `postgres` kind.
  'yukta.store': z.enum(STORE_KINDS).optional(),
  /** A secret: the URL itself (environment `YUKTA_POSTGRES_URL`) or `decrypted:<name>`; never logged or returned. */
  'yukta.postgres.url': z.string().min(1).optional(),
  'yukta.postgres.pool-size': z.number().int().min(1).max(1000).default(10),
  /** Milliseconds a statement may run before the server cancels it (0 = no limit). */
  'yukta.postgres.statement-timeout': z.number().int().min(0).default(30_000),
  'yukta.postgres.schema': z.string().regex(/^[a-z_][a-z0-9_]{0,62}$/, 'lower-case letters, digits and _ (at most 63), starting with a letter or _').default('public'),
});
export type HostSettings = z.infer<typeof HostSettings>;

const RATE_LIMIT_PREFIX = 'yukta.llm.rate-limit.';
const VAR_PREFIX = 'yukta.var.';

/** Environment names of the settings: `yukta.process.enabled` → `YUKTA_PROCESS_ENABLED`. */
export function envNameOf(key: string): string {
  return key.toUpperCase().replace(/[.-]/g, '_');
}

const LIST_KEYS = ['yukta.http.allowed-addresses', 'yukta.process.allowed-commands', 'yukta.variables.allowed'] as const;
const BOOLEAN_KEYS = ['yukta.http.allow-private', 'yukta.process.enabled', 'yukta.http.enabled', 'yukta.execution-log.fsync', 'yukta.restart.auto-resume'] as const;
const NUMBER_KEYS = [
  'yukta.http.port', 'yukta.http.max-response-bytes', 'yukta.http.max-redirects', 'yukta.execution.max-message-bytes',
  'yukta.execution-log.retained-runs', 'yukta.execution-log.compact-after',
  'yukta.restart.retained-executions', 'yukta.restart.max-messages-per-node', 'yukta.restart.max-bytes-per-node',
  'yukta.tracker.cleanup-ttl', 'yukta.tracker.max-sessions', 'yukta.postgres.pool-size', 'yukta.postgres.statement-timeout',
] as const;
const STRING_KEYS = ['yukta.execution-log.dir', 'yukta.restart.dir', 'yukta.restart.spill-dir', 'yukta.store', 'yukta.postgres.url', 'yukta.postgres.schema'] as const;

/** Settings from the environment, which win over the file. Lists are comma-separated; `YUKTA_API_KEYS` is JSON. */
export function settingsFromEnv(env: Readonly<Record<string, string | undefined>>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const read = (key: string) => env[envNameOf(key)];
  if (read('yukta.api-key')) out['yukta.api-key'] = read('yukta.api-key');
  const keys = read('yukta.api-keys');
  if (keys) out['yukta.api-keys'] = parseJson(keys, 'YUKTA_API_KEYS');
  for (const key of LIST_KEYS) {
    const value = read(key);
    if (value !== undefined) out[key] = value.split(',').map((s) => s.trim()).filter(Boolean);
  }
  for (const key of BOOLEAN_KEYS) {
    const value = read(key);
    if (value !== undefined) out[key] = value === '1' || value.toLowerCase() === 'true';
  }
  for (const key of NUMBER_KEYS) {
    const value = read(key);
    if (value !== undefined) out[key] = Number(value);
  }
  for (const key of STRING_KEYS) {
    const value = read(key);
    if (value) out[key] = value;
  }
  const limits: Record<string, number> = {};
  const envPrefix = envNameOf(RATE_LIMIT_PREFIX);
  for (const [name, value] of Object.entries(env)) {
    if (name.startsWith(envPrefix) && value) limits[name.slice(envPrefix.length).toLowerCase()] = Number(value);
  }
  if (Object.keys(limits).length) out['yukta.llm.rate-limit'] = limits;
  return out;
}

/** Gathers the flat `yukta.llm.rate-limit.<provider>` and `yukta.var.*` keys of a settings file into records. */
function gatherFlatKeys(raw: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const limits: Record<string, unknown> = {};
  const vars: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(raw)) {
    if (key.startsWith(RATE_LIMIT_PREFIX)) limits[key.slice(RATE_LIMIT_PREFIX.length)] = value;
    else if (key.startsWith(VAR_PREFIX)) vars[key] = value;
    else out[key] = value;
  }
  if (Object.keys(limits).length) out['yukta.llm.rate-limit'] = limits;
  if (Object.keys(vars).length) out['yukta.var'] = vars;
  return out;
}

function parseJson(text: string, what: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new Error(`${what} is not valid JSON`, { cause: error });
  }
}

/**
 * Reads the settings: `<data>/settings.json` (when there is a data folder), then the environment on top.
 * Unknown `yukta.*` keys are refused (a typo must not silently leave a protection off); the error names the key.
 */
export function loadHostSettings(dataDir: string | null, env: Readonly<Record<string, string | undefined>> = {}): HostSettings {
  const file = dataDir ? readJsonFile(join(dataDir, SETTINGS_FILE)) : null;
  if (file !== null && (typeof file !== 'object' || Array.isArray(file))) throw new Error(`${SETTINGS_FILE} must hold a JSON object of yukta.* keys`);
  return parseHostSettings({ ...gatherFlatKeys((file ?? {}) as Record<string, unknown>), ...settingsFromEnv(env) });
}

/** Keys under these prefixes belong to this page; a typo there is refused. Other `yukta.*` keys are left to their owners. */
const OWNED = /^yukta\.(api-key|http\.|process\.|variables\.|execution\.max-message-bytes|execution-log\.|restart\.|tracker\.|llm\.|var\b|store\b|postgres\.)/;

export function parseHostSettings(raw: Record<string, unknown>): HostSettings {
  const known = new Set(Object.keys(HostSettings.shape));
  const unknown = Object.keys(raw).filter((k) => OWNED.test(k) && !known.has(k));
  if (unknown.length) throw new Error(`unknown setting ${unknown.map((k) => `"${k}"`).join(', ')} (see docs/reference.md)`);
  const parsed = HostSettings.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`setting ${joinPath(issue.path) || 'settings'}: ${issue.message}`);
  }
  return parsed.data;
}

/** The configured API keys: `yukta.api-key` is one ADMIN key named `default`; `yukta.api-keys[]` add named ones. */
export function configuredApiKeys(settings: HostSettings, env: Readonly<Record<string, string | undefined>> = {}): ConfiguredApiKey[] {
  const keys: ConfiguredApiKey[] = [];
  const single = settings['yukta.api-key'];
  if (single) keys.push({ name: 'default', key: single, role: 'ADMIN', source: env[envNameOf('yukta.api-key')] ? 'environment' : 'settings' });
  const fromEnv = Boolean(env[envNameOf('yukta.api-keys')]);
  for (const k of settings['yukta.api-keys']) keys.push({ name: k.name, key: k.key, role: k.role, sessions: k.sessions ?? null, source: fromEnv ? 'environment' : 'settings' });
  return keys;
}

/** The engine's execution safety settings (SEC-02, SEC-03, EXT-03) from the host's. */
export function securitySettingsOf(settings: HostSettings): SecuritySettingsPatch {
  return {
    http: {
      allowPrivate: settings['yukta.http.allow-private'],
      allowedAddresses: settings['yukta.http.allowed-addresses'],
      maxResponseBytes: settings['yukta.http.max-response-bytes'],
      maxRedirects: settings['yukta.http.max-redirects'],
    },
    process: { enabled: settings['yukta.process.enabled'], allowedCommands: settings['yukta.process.allowed-commands'] },
    variables: { allowed: settings['yukta.variables.allowed'], values: settings['yukta.var'] },
    maxMessageBytes: settings['yukta.execution.max-message-bytes'],
    llmRateLimits: settings['yukta.llm.rate-limit'],
  };
}

/**
 * The durability settings (DUR-01, DUR-02) for `openStores`: relative folders are resolved under the data
 * folder; the checkpoint caps apply to the memory store.
 */
export function durabilitySettingsOf(settings: HostSettings, dataDir: string | null): DurabilitySettings {
  const folder = (value: string | undefined): string | undefined => (value === undefined ? undefined : dataDir ? resolve(dataDir, value) : resolve(value));
  return {
    logDir: folder(settings['yukta.execution-log.dir']),
    fsync: settings['yukta.execution-log.fsync'],
    retention: { retainedRuns: settings['yukta.execution-log.retained-runs'], compactAfter: settings['yukta.execution-log.compact-after'] },
    checkpointDir: folder(settings['yukta.restart.dir']),
    spillDir: folder(settings['yukta.restart.spill-dir']),
    maxMessagesPerNode: settings['yukta.restart.max-messages-per-node'],
    maxBytesPerNode: settings['yukta.restart.max-bytes-per-node'],
  };
}
