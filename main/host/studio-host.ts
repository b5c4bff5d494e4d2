import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { DATABASE_FILE, Engine, FileDefinitionStore, MemoryDefinitionStore, SqliteDefinitionStore, type DefinitionStore, type EngineOptions } from '../../engine/index';
import type { ApiResult } from '../../shared/api/errors';
import type { Caller } from '../../shared/api/roles';
import type { EventBatchListener } from '../../shared/api/transport';
import type { EventFilter } from '../../shared/events/events';
import { ApiKeyRegistry } from './api-keys';
import { dispatch } from './dispatch';
import { EventBatcher } from './event-batcher';
import { configuredApiKeys, parseHostSettings, securitySettingsOf, type HostSettings } from './host-settings';
import { createOperationHandlers, type OperationHandlers } from './operation-handlers';
import { NO_SECRET_STORE, type SecretStore } from './secret-store';
import { withSessionScope } from './session-scope';

/** Where definitions and sessions live (DEF-01). */
export const STORE_KINDS = ['sqlite', 'file', 'memory'] as const;
export type StoreKind = (typeof STORE_KINDS)[number];

export interface StudioHostOptions {
  /** Data folder; definitions live under it. Without one everything stays in memory. */
  dataDir?: string;
  /**
   * `sqlite` (`<data>/yukta.db`; the default with a data folder), `file` (JSON files under
   * `<data>/workflows`) or `memory` (the default without a data folder). The first two need `dataDir`.
   */
  store?: StoreKind;
  /** Extra engine options (plugins, clock) — mainly for tests. */
  engine?: Omit<EngineOptions, 'definitions'>;
  /** Where unexpected errors are reported (the transports only ever send `INTERNAL`). */
  onInternalError?: (error: unknown) => void;
  /** Settings (`loadHostSettings`: `<data>/settings.json` + environment); defaults when absent. */
  settings?: HostSettings;
  /** The environment for `YUKTA_SECRET_*` secrets and `${env.X}` variables (default: this process's). */
  env?: Readonly<Record<string, string | undefined>>;
  /** Stored secrets (the desktop app's safeStorage store); none by default. */
  secretStore?: SecretStore;
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
  /** API keys (SEC-01): configured ones and those created in the studio. */
  readonly apiKeys: ApiKeyRegistry;
  readonly secretStore: SecretStore;
  private readonly definitions: DefinitionStore;
  private readonly handlers: OperationHandlers;
  private readonly batchers = new Set<EventBatcher>();

  constructor(private readonly options: StudioHostOptions = {}) {
    this.dataDir = options.dataDir ?? null;
    if (this.dataDir) mkdirSync(this.dataDir, { recursive: true });
    this.storeKind = options.store ?? (this.dataDir ? 'sqlite' : 'memory');
    this.definitions = openDefinitionStore(this.storeKind, this.dataDir);
    this.settings = options.settings ?? parseHostSettings({});
    const env = options.env ?? process.env;
    this.secretStore = options.secretStore ?? NO_SECRET_STORE;
    const security = { settings: securitySettingsOf(this.settings), secrets: this.secretStore, env, ...options.engine?.security };
    this.engine = new Engine({ ...options.engine, security, definitions: this.definitions, onListenerError: options.onInternalError });
    this.apiKeys = new ApiKeyRegistry(configuredApiKeys(this.settings, env), this.dataDir ? join(this.dataDir, API_KEYS_FILE) : null);
    const settingsServices = { apiKeys: this.apiKeys, secretStore: this.secretStore, environmentSecretNames: () => environmentSecretNames(env) };
    this.handlers = withSessionScope(createOperationHandlers(this.engine, settingsServices), (id) => this.runSession(id));
  }

  /** Runs one operation for a caller; never throws, errors come back as data. */
  invoke(operation: unknown, input: unknown, caller: Caller): Promise<ApiResult<unknown>> {
    return dispatch(this.handlers, operation, input, caller, this.options.onInternalError);
  }

  /** The session of a run the host knows (live, queued or in history), or null. */
  runSession(executionId: string): string | null {
    try {
      return this.engine.getRun(executionId).session;
    } catch {
      return null;
    }
  }

  /** Subscribes to the event feed; events arrive in batches. Returns the unsubscribe function. */
  subscribe(filter: EventFilter, listener: EventBatchListener): () => void {
    const batcher = new EventBatcher(filter, listener);
    const unsubscribe = this.engine.subscribe(batcher.push);
    this.batchers.add(batcher);
    return () => {
      unsubscribe();
      batcher.close();
      this.batchers.delete(batcher);
    };
  }

  async close(): Promise<void> {
    await this.engine.shutdown();
    for (const b of this.batchers) b.close();
    this.batchers.clear();
    await this.definitions.close();
  }
}

function openDefinitionStore(kind: StoreKind, dataDir: string | null): DefinitionStore {
  if (kind === 'memory') return new MemoryDefinitionStore();
  if (!dataDir) throw new Error(`the ${kind} store needs a data folder`);
  return kind === 'file' ? new FileDefinitionStore(dataDir) : SqliteDefinitionStore.open(join(dataDir, DATABASE_FILE));
}

/** Studio-made API keys (SHA-256 only) in the data folder. */
export const API_KEYS_FILE = 'api-keys.json';

function environmentSecretNames(env: Readonly<Record<string, string | undefined>>): string[] {
  return Object.keys(env).filter((k) => k.startsWith('YUKTA_SECRET_') && k.length > 'YUKTA_SECRET_'.length && env[k]).map((k) => k.slice('YUKTA_SECRET_'.length));
}

/** The caller of the desktop renderer: the local user is ADMIN (SEC-01). */
export const LOCAL_UI_CALLER: Caller = { actor: 'ui:local', role: 'ADMIN' };
/** The caller of the CLI. */
export const CLI_CALLER: Caller = { actor: 'cli', role: 'ADMIN' };
