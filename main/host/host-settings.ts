import { resolve } from 'node:path';
import { LIMIT_SETTING_NAMES, SchedulerLimits } from '../../shared/api/scheduler.schema';
import { envNameOf } from '../../shared/settings/setting-spec';
import type { SettingsValues } from '../../shared/settings/settings-lookup';
import type { DurabilitySettings, EngineOptions, SecuritySettingsPatch } from '../../engine/index';
import type { ConfiguredApiKey } from './api-keys';
import { LoadedSettings, loadSettings, SETTINGS_FILE } from './loaded-settings';
import { envAssignments } from './settings-sources';

export { envNameOf, SETTINGS_FILE };

/** Every `yukta.*` setting the host reads, parsed, with defaults: the settings table's values (CFG-01). */
export type HostSettings = SettingsValues;

/** Settings from the environment alone, as parsed values of the keys it sets (families as records). */
export function settingsFromEnv(env: Readonly<Record<string, string | undefined>>): Record<string, unknown> {
  const loaded = LoadedSettings.fromLayers([envAssignments(env)], null);
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(loaded.values)) {
    const set = loaded.source(key).kind !== 'default' || loaded.membersOf(key).length > 0;
    if (set) out[key] = value;
  }
  return out;
}

/**
 * Reads the settings: `<data>/settings.json` (when there is a data folder), then the environment on top.
 * Strict: an unknown key, a misspelt `YUKTA_*` variable or a bad value throws, naming the key and its source.
 */
export function loadHostSettings(dataDir: string | null, env: Readonly<Record<string, string | undefined>> = {}): HostSettings {
  return loadSettings({ dataDir, env }).values;
}

/** Settings given as an object (`{"yukta.tracker.cleanup-ttl": 1000}`), with the table's defaults for the rest. */
export function parseHostSettings(raw: Record<string, unknown>): HostSettings {
  return LoadedSettings.fromObject(raw).values;
}

/** The configured API keys: `yukta.api-key` is one ADMIN key named `default`; `yukta.api-keys[]` add named ones. */
export function configuredApiKeys(settings: HostSettings, env: Readonly<Record<string, string | undefined>> = {}): ConfiguredApiKey[] {
  const keys: ConfiguredApiKey[] = [];
  const single = settings['yukta.api-key'];
  if (single) keys.push({ name: 'default', key: single, role: 'ADMIN', source: env[envNameOf('yukta.api-key')] ? 'environment' : 'settings' });
  const fromEnv = Boolean(env[envNameOf('yukta.api-keys')]);
  for (const k of settings['yukta.api-keys'])
    keys.push({ name: k.name, key: k.key, role: k.role, sessions: k.sessions ?? null, source: fromEnv ? 'environment' : 'settings' });
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
    maxDepth: settings['yukta.execution.max-depth'],
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

/** The scheduler's configured limits (ADM-01) from their settings; the newest logged change wins over them (ADM-03). */
export function schedulerLimitsOf(settings: HostSettings): SchedulerLimits {
  const byKey: Readonly<Record<string, unknown>> = settings;
  return SchedulerLimits.parse(Object.fromEntries(Object.entries(LIMIT_SETTING_NAMES).map(([field, key]) => [field, byKey[key]])));
}

/** The engine options the settings decide (ADM-02, DEF-01, CTL-07, OBS-01); the host merges its owner's options over them. */
export function engineSettingsOf(settings: HostSettings): Pick<EngineOptions, 'idempotencyTtlMs' | 'idempotencyMaxKeys' | 'maxVersions' | 'maxRuns'> & {
  control: NonNullable<EngineOptions['control']>;
  tracker: NonNullable<EngineOptions['tracker']>;
} {
  return {
    idempotencyTtlMs: settings['yukta.start.idempotency-ttl'],
    idempotencyMaxKeys: settings['yukta.start.idempotency-max-keys'],
    maxVersions: settings['yukta.definitions.max-versions'],
    maxRuns: settings['yukta.tracker.status-history-max-executions'],
    control: {
      retainedRuns: settings['yukta.restart.retained-executions'],
      supervisorMaxCommandsPerSecond: settings['yukta.supervisor.max-commands-per-second'],
      supervisorDryRun: settings['yukta.supervisor.dry-run'],
    },
    tracker: {
      cleanupTtlMs: settings['yukta.tracker.cleanup-ttl'],
      maxSessions: settings['yukta.tracker.max-sessions'],
      maxSnapshotsPerRun: settings['yukta.tracker.status-history-max-per-run'],
    },
  };
}

/** The engine's remote-worker options (SCL-01): lease, window, and the message limits of SEC-03 for what crosses. */
export function workerSettingsOf(settings: HostSettings): { leaseMs: number; window: number; maxMessageBytes: number; maxDepth: number } {
  return {
    leaseMs: settings['yukta.workers.lease'],
    window: settings['yukta.workers.window'],
    maxMessageBytes: settings['yukta.execution.max-message-bytes'],
    maxDepth: settings['yukta.execution.max-depth'],
  };
}
