import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  Engine,
  FileTriggerStateStore,
  KeyValueTriggerStateStore,
  openDurableStores,
  openStores,
  STORE_KINDS,
  type DurableStores,
  type EngineOptions,
  type OpenStoresOptions,
  type StoreKind,
  type StoreWriteProblem,
} from '../../engine/index';
import type { ApiResult } from '../../shared/api/errors';
import type { Caller } from '../../shared/api/roles';
import type { EventBatchListener } from '../../shared/api/transport';
import type { EventFilter } from '../../shared/events/events';
import { ApiKeyRegistry } from './api-keys';
import { dispatch } from './dispatch';
import { EventBatcher } from './event-batcher';
import type { InputLimits } from './input-parse';
import { internalErrorData, type InternalErrorReporter } from './internal-error';
import {
  configuredApiKeys,
  durabilitySettingsOf,
  engineSettingsOf,
  schedulerLimitsOf,
  securitySettingsOf,
  workerSettingsOf,
  type HostSettings,
} from './host-settings';
import { LoadedSettings } from './loaded-settings';
import { SettingsFile } from './settings-file';
import { SettingsService } from './settings-service';
import { BREAKPOINTS_FILE, BreakpointStore } from './breakpoint-store';
import { createOperationHandlers, type OperationHandlers } from './operation-handlers';
import { postgresConnectionOf } from './postgres-settings';
import { withStandbyRefusal } from './ha-guard';
import { haSettingsOf, HostLease } from './ha-lease';
import { describeLeaseStatus } from './ha-log';
import { keyedSecretStore, type SecretStore } from './secret-store';
import { withSessionScope } from './session-scope';
import { ExecutionId } from '../../shared/workflow/ids';

/** Where definitions, the execution log and checkpoints live (DEF-01, DUR-01, DUR-02). */
export { STORE_KINDS, type StoreKind };

export interface StudioHostOptions {
  /** Data folder; definitions live under it. Without one everything stays in memory. */
  dataDir?: string;
  /**
   * `sqlite` (`<data>/yukta.db`: definitions, execution log, checkpoints; the default with a data folder),
   * `file` (JSON definitions under `<data>/workflows`, `<data>/logs/executions.jsonl`, `<data>/checkpoints/`)
   * or `memory` (the default without a data folder; no durability). The first two need `dataDir`.
   * `postgres` (DUR-04: `yukta.postgres.url`) connects asynchronously: open the host with `StudioHost.open`.
   * Default: `yukta.store`, else as above.
   */
  store?: StoreKind;
  /** Stores already open (`StudioHost.open` connects to PostgreSQL first); the host closes them. */
  stores?: DurableStores;
  /** Extra engine options (plugins, clock) — mainly for tests. */
  engine?: Omit<EngineOptions, 'definitions'>;
  /** Where unexpected errors are reported with their id (the transports only ever send `internal error <id>`). */
  onInternalError?: InternalErrorReporter;
  /** Store warnings: a torn last JSONL line skipped at boot, a background write that failed and is retried (default: stderr). */
  onWarning?: (message: string) => void;
  /** Remote workers registering, refused, dropped (SCL-01); warnings go to `onWarning` when this is absent. */
  onWorkerLog?: (level: 'info' | 'warn', text: string) => void;
  /**
   * Settings (CFG-01): `loadSettings` (`<data>/settings.json`, environment, `--set` flags, with each value's
   * source) or parsed values (`parseHostSettings`); the table's defaults when absent. Engine options given
   * in `engine` win over them (tests).
   */
  settings?: HostSettings | LoadedSettings;
  /** The environment for `YUKTA_SECRET_*` secrets and `${env.X}` variables (default: this process's). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Stored secrets (the desktop app's safeStorage store); by default sealed under `yukta.secrets.key` when set, else none. */
  secretStore?: SecretStore;
  /** better-sqlite3's addon for the `sqlite` store; only the desktop main sets it (a build for Electron's ABI). */
  sqliteNativeBinding?: string;
  /** The leader lease (SCL-02, `yukta.ha.mode=postgres`), opened by `StudioHost.open` before the stores; the host releases it. */
  lease?: HostLease;
  /** The lease's changes of role and leader, one line each (default: `onWarning`). */
  onHaLog?: (text: string) => void;
}

/**
 * The host: one engine for a data folder, the StudioApi implemented on it, and batched event
 * subscriptions. IPC, HTTP and the CLI all talk to this object, never to the engine directly.
 */
export class StudioHost {
  readonly engine: Engine;
  readonly dataDir: string | null;
  readonly storeKind: StoreKind;
  readonly settings: HostSettings;
  /** The settings with the source of each value (`settings.get`). */
  readonly loadedSettings: LoadedSettings;
  /** `settings.get` / `settings.set` (CFG-01). */
  readonly settingsService: SettingsService;
  private readonly settingsFile: SettingsFile;
  /** API keys (SEC-01): configured ones and those created in the studio. */
  readonly apiKeys: ApiKeyRegistry;
  readonly secretStore: SecretStore;
  /** Definitions, execution log and checkpoints of the data folder (`openStores`); the log is null for `memory`. */
  readonly stores: DurableStores;
  /** The leader lease with `yukta.ha.mode=postgres` (SCL-02); null: this host always leads. */
  readonly lease: HostLease | null;
  private readonly handlers: OperationHandlers;
  /** What every operation's input is held to (SEC-03): `yukta.execution.max-depth` and `max-message-bytes`. */
  private readonly inputLimits: InputLimits;
  private readonly batchers = new Set<EventBatcher>();
  private draining: Promise<void> | null = null;

  constructor(private readonly options: StudioHostOptions = {}) {
    this.dataDir = options.dataDir ?? null;
    if (this.dataDir) mkdirSync(this.dataDir, { recursive: true });
    // Read first: a broken breakpoints file stops the host before any store is opened.
    const breakpoints = new BreakpointStore(this.dataDir ? join(this.dataDir, BREAKPOINTS_FILE) : null);
    this.loadedSettings = loadedSettingsOf(options.settings);
    this.settings = this.loadedSettings.values;
    this.settingsFile = new SettingsFile(this.loadedSettings);
    this.inputLimits = { maxDepth: this.settings['yukta.execution.max-depth'], maxBytes: this.settings['yukta.execution.max-message-bytes'] };
    this.storeKind = options.stores?.kind ?? storeKindOf(options, this.settings);
    this.lease = options.lease ?? null;
    if (this.storeKind === 'postgres' && !options.stores)
      throw new Error('the postgres store connects to its server asynchronously: create the host with StudioHost.open');
    this.stores = options.stores ?? openStores(hostStoreOptions(this.storeKind, this.dataDir, this.settings, options));
    const env = options.env ?? process.env;
    this.secretStore = options.secretStore ?? keyedSecretStore(this.dataDir, this.settings['yukta.secrets.key']);
    try {
      this.engine = new Engine(this.engineOptions(env));
    } catch (error) {
      void this.stores.close();
      throw error;
    }
    this.lease?.registerMetrics(this.engine.metrics.registry);
    this.apiKeys = new ApiKeyRegistry(configuredApiKeys(this.settings, env), this.dataDir ? join(this.dataDir, API_KEYS_FILE) : null);
    const securityServices = { apiKeys: this.apiKeys, secretStore: this.secretStore, environmentSecretNames: () => environmentSecretNames(env) };
    this.settingsService = new SettingsService({ loaded: this.loadedSettings, file: this.settingsFile, engine: this.engine, dataDir: this.dataDir });
    const lease = this.lease;
    const handlers = createOperationHandlers(this.engine, securityServices, this.settingsService, breakpoints, lease ? () => lease.status() : undefined);
    this.handlers = withSessionScope(lease ? withStandbyRefusal(handlers, () => lease.standbyReason()) : handlers, (id) => this.runSession(id));
  }

  /**
   * A host whose stores are opened first, which the `postgres` kind needs (DUR-04: it connects and migrates
   * its database); any other kind opens as with `new StudioHost`.
   */
  static async open(options: StudioHostOptions = {}): Promise<StudioHost> {
    const settings = loadedSettingsOf(options.settings);
    const kind = storeKindOf(options, settings.values);
    if (kind !== 'postgres' || options.stores) return new StudioHost(options);
    const dataDir = options.dataDir ?? null;
    if (dataDir) mkdirSync(dataDir, { recursive: true });
    const connection = postgresConnectionOf(
      settings.values,
      options.secretStore ?? keyedSecretStore(dataDir, settings.values['yukta.secrets.key']),
      options.env ?? process.env,
    );
    const storeOptions = hostStoreOptions(kind, dataDir, settings.values, options);
    // SCL-02: the lease first, so the stores' writer writes under its fencing number from its first batch.
    const ha = haSettingsOf(settings.values, kind);
    const haLog = options.onHaLog ?? options.onWarning ?? ((text: string) => console.warn(`yukta: ${text}`));
    const lease = ha
      ? await HostLease.open(connection, ha, {
          onChange: (status) => haLog(describeLeaseStatus(status)),
          onError: (error) => haLog(`leader lease: ${error.message}`),
        })
      : undefined;
    let stores: DurableStores | undefined;
    try {
      stores = await openDurableStores({ ...storeOptions, settings: { ...storeOptions.settings, postgres: { ...connection, fencing: lease?.lease } } });
      return new StudioHost({ ...options, settings, stores, lease });
    } catch (error) {
      await stores?.close();
      await lease?.close();
      throw error;
    }
  }

  /** Settles once boot recovery is done (DUR-01: interrupted runs ABORTED, history and idempotency keys read back). */
  get ready(): Promise<void> {
    return this.engine.ready;
  }

  /** The engine's options: the settings' (CFG-01), then the owner's `engine` options over them, then the stores. */
  private engineOptions(env: Readonly<Record<string, string | undefined>>): EngineOptions {
    const { settings, options } = this;
    const extra = options.engine;
    const fromSettings = engineSettingsOf(settings);
    const security = { settings: securitySettingsOf(settings), secrets: this.secretStore, env, ...extra?.security };
    const tracker = { ...fromSettings.tracker, ...extra?.tracker };
    const lease = this.lease;
    const leadership = lease ? { isLeader: () => lease.lease.isLeader(), leader: () => lease.leaderName() } : {};
    const scheduler = { ...leadership, ...extra?.scheduler, limits: { ...schedulerLimitsOf(settings), ...extra?.scheduler?.limits } };
    const warn = options.onWarning ?? ((message: string) => console.warn(`yukta: ${message}`));
    const workers = {
      ...workerSettingsOf(settings),
      log: options.onWorkerLog ?? ((level: string, text: string) => level === 'warn' && warn(text)),
      ...extra?.workers,
    };
    return {
      ...fromSettings,
      ...extra,
      ...this.durableEngineOptions(fromSettings.control),
      security,
      tracker,
      scheduler,
      workers,
      definitions: this.stores.definitions,
      onListenerError: options.onInternalError ? reportListenerError(options.onInternalError) : undefined,
    };
  }

  /**
   * The engine's durability (DUR-01…03): the log for the journal and recovery (none with the memory store),
   * the checkpoint store for the control plane, `yukta.restart.auto-resume` and `yukta.restart.retained-executions`.
   */
  private durableEngineOptions(fromSettings: NonNullable<EngineOptions['control']>): Pick<EngineOptions, 'durability' | 'control' | 'triggers'> {
    const { stores, settings } = this;
    const extra = this.options.engine;
    // SetSetting commands reach the settings file after the reviewers (CFG-01); supervisors' rules live in the
    // store's key–value state when it has one (PostgreSQL).
    const ruleStore = stores.keyValues ? { ruleStore: stores.keyValues } : {};
    const control = {
      ...fromSettings,
      settings: this.settingsFile,
      ...ruleStore,
      ...extra?.control,
      checkpoints: extra?.control?.checkpoints ?? stores.checkpoints,
    };
    // CRON_TRIGGER's last fires live beside the data (EXT-01 missed-fire policy: fires missed while the app was
    // closed): in the database when the store has key–value state (PostgreSQL), else in the data folder.
    const state = stores.keyValues
      ? new KeyValueTriggerStateStore(stores.keyValues)
      : this.dataDir && stores.kind !== 'memory'
        ? new FileTriggerStateStore(join(this.dataDir, TRIGGERS_FILE))
        : null;
    const triggers = state ? { state, ...extra?.triggers } : extra?.triggers;
    const withTriggers = triggers ? { triggers } : {};
    if (!stores.log || extra?.durability) return { control, ...withTriggers, ...(extra?.durability ? { durability: extra.durability } : {}) };
    // SCL-02: a standby recovers (the takeover: the old leader's unfinished runs ABORTED) once it leads.
    return {
      control,
      ...withTriggers,
      durability: { log: stores.log, autoResume: settings['yukta.restart.auto-resume'], leadership: this.lease?.lease.acquired },
    };
  }

  /** Runs one operation for a caller; never throws, errors come back as data. */
  invoke(operation: unknown, input: unknown, caller: Caller): Promise<ApiResult<unknown>> {
    return dispatch(this.handlers, operation, input, caller, { limits: this.inputLimits, onInternalError: this.options.onInternalError });
  }

  /** Reports an unexpected error a transport met, under the id its caller was given. */
  reportInternalError(error: unknown, id: string): void {
    this.options.onInternalError?.(error, id);
  }

  /** The session of a run the host knows (live, queued or in history), or null. The id is the caller's, not yet parsed. */
  runSession(executionId: string): string | null {
    const parsed = ExecutionId.safeParse(executionId);
    if (!parsed.success) return null;
    try {
      return this.engine.getRun(parsed.data).session;
    } catch {
      return null;
    }
  }

  /** Subscribes to the event feed; events arrive in batches. Returns the unsubscribe function. */
  subscribe(filter: EventFilter, listener: EventBatchListener): () => void {
    // A subscriber filtered to a run first gets its current state (OBS-01), read in the same turn as subscribing.
    const batcher = new EventBatcher(filter, listener, this.engine.catchUp(filter));
    const unsubscribe = this.engine.subscribe(batcher.push);
    this.batchers.add(batcher);
    return () => {
      unsubscribe();
      batcher.close();
      this.batchers.delete(batcher);
    };
  }

  /**
   * Shutdown, first half (ADM-01): nothing new is admitted (refused `reason=shutdown`), queued starts are
   * refused, running runs get `yukta.execution.shutdown-timeout` and are then killed. The stores stay open, so
   * a transport may keep answering (refusing starts) until this settles. Called once; later calls share it.
   */
  drain(): Promise<void> {
    return (this.draining ??= this.engine.shutdown());
  }

  /** Ends the runs (`drain`), then writes what the stores still queue and closes them. */
  async close(): Promise<void> {
    try {
      await this.drain();
    } finally {
      for (const b of this.batchers) b.close();
      this.batchers.clear();
      // Boot recovery reads the stores (PostgreSQL: over the pool): it ends before they close.
      // A standby that never led recovers nothing: it stops looking for the lease, so `ready` settles.
      this.lease?.lease.stopWaiting();
      await this.engine.ready.catch(() => undefined);
      try {
        await this.stores.close();
      } finally {
        // After the last write: a standby takes over from what is stored.
        await this.lease?.close();
      }
    }
  }
}

/** The settings as given (loaded, with each value's source) or as parsed values; the table's defaults when absent. */
function loadedSettingsOf(settings: HostSettings | LoadedSettings | undefined): LoadedSettings {
  return settings instanceof LoadedSettings ? settings : LoadedSettings.fromValues(settings);
}

/** The store kind: the option (`--store`), else `yukta.store`, else SQLite with a data folder and memory without. */
function storeKindOf(options: StudioHostOptions, settings: HostSettings): StoreKind {
  return options.store ?? settings['yukta.store'] ?? (options.dataDir ? 'sqlite' : 'memory');
}

/** How the stores of the data folder open (DUR-01, DUR-02); the memory kind keeps the engine option's checkpoint caps. */
function hostStoreOptions(kind: StoreKind, dataDir: string | null, settings: HostSettings, options: StudioHostOptions): OpenStoresOptions {
  const warn = options.onWarning ?? ((message: string) => console.warn(`yukta: ${message}`));
  const durability = durabilitySettingsOf(settings, dataDir);
  const control = options.engine?.control;
  if (control?.maxMessagesPerNode !== undefined) durability.maxMessagesPerNode = control.maxMessagesPerNode;
  if (control?.maxBytesPerNode !== undefined) durability.maxBytesPerNode = control.maxBytesPerNode;
  return {
    kind,
    dataDir,
    settings: durability,
    warn,
    nativeBinding: options.sqliteNativeBinding,
    onWriteError: (error: StoreWriteProblem) => warn(storeProblemMessage(error)),
  };
}

/** Errors of event listeners have no caller to answer; they are reported under an id of their own. */
function reportListenerError(report: InternalErrorReporter): (error: unknown) => void {
  return (error) => void internalErrorData(error, report);
}

function storeProblemMessage(error: StoreWriteProblem): string {
  return error.retryable
    ? `store write failed (retried at the next flush): ${error.message}`
    : `store entry dropped (it can never be written): ${error.message}`;
}

/** Studio-made API keys (SHA-256 only) in the data folder. */
export const API_KEYS_FILE = 'api-keys.json';
/** CRON_TRIGGER's last fire per schedule, in the data folder (EXT-01). */
export const TRIGGERS_FILE = 'triggers.json';

function environmentSecretNames(env: Readonly<Record<string, string | undefined>>): string[] {
  return Object.keys(env)
    .filter((k) => k.startsWith('YUKTA_SECRET_') && k.length > 'YUKTA_SECRET_'.length && env[k])
    .map((k) => k.slice('YUKTA_SECRET_'.length));
}

/** The caller of the desktop renderer: the local user is ADMIN (SEC-01). */
export const LOCAL_UI_CALLER: Caller = { actor: 'ui:local', role: 'ADMIN' };
/** The caller of the CLI. */
export const CLI_CALLER: Caller = { actor: 'cli', role: 'ADMIN' };
