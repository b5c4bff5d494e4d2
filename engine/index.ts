/**
 * The engine's one public entry: the host and tools import from here only (ARCHITECTURE.md).
 */
export { Engine, type EngineOptions, type EngineSchedulerOptions, type EngineTrackerOptions, type StartRequest } from './engine';
export { EngineMetrics, METER_NAMES } from './observability/engine-metrics';
export type { TracingOptions } from './observability/run-tracing';
export type { ProgressSnapshot } from './tracker/run-tracker';
export { MemorySchedulerLog, SCHEDULER_RUN_ID, type SchedulerLog, type SetLimitsRecord } from './scheduler/scheduler-log';
export type { SchedulerCommand, SchedulerCommandGate } from './scheduler/scheduler-commands';
export type { DefinitionStore, SaveOptions, SessionSettings, StoredSession, VersionEntry } from './store/definition-store';
export { MemoryDefinitionStore } from './store/memory/memory-definition-store';
export { FileDefinitionStore } from './store/file/file-definition-store';
export { SqliteDefinitionStore } from './store/sqlite/sqlite-definition-store';
export { DATABASE_FILE } from './store/sqlite/open-database';
export type { WorkflowDefinitions } from './definitions/workflow-definitions';
export type { SessionCatalog } from './definitions/session-catalog';
export { SystemClock, ManualClock, type Clock, type TimerHandle } from './runtime/clock';
export { BadInputError, CancelledError } from './runtime/errors';
export {
  ConflictError,
  EngineError,
  NodeTimeoutError,
  NotFoundError,
  PayloadTooLargeError,
  QueueFullError,
  RateLimitedError,
  RefusedByLimitError,
  RefusedError,
  RunAbortedError,
  UnavailableError,
  ValidationError,
  type EngineErrorKind,
} from './engine-errors';
export type { Message, OutputMessage } from './runtime/message';
export { definePlugin, type Plugin, type PluginContext, type PluginLogger, type PluginResult } from './plugins/contract';
export { PluginRegistry } from './plugins/registry';
export type { EngineSecurityOptions, PluginServices } from './plugins/services';
export { secretEnvName, type SecretProvider } from './security/secrets';
export type { SecuritySettingsPatch } from './security/security-settings';
export { builtinPlugins } from './plugins/builtin';
export { contentHash, canonicalJson } from './definitions/content-hash';
export type { EventListener } from './tracker/event-bus';
export {
  openDurableStores,
  openStores,
  STORE_KINDS,
  type DurabilitySettings,
  type DurableStores,
  type OpenStoresOptions,
  type StoreKind,
} from './store/durable-stores';
export { describeUrl as describePostgresUrl, openPool, type PostgresConnectionOptions } from './store/postgres/postgres-connection';
export { LeaderLease, STEP_DOWN_REASONS, type LeaseHolder, type LeaseRole, type LeaseStatus, type StepDownReason } from './store/postgres/leader-lease';
export { migratePostgres } from './store/postgres/migrate';
export { POSTGRES_MIGRATIONS } from './store/postgres/migrations';
export { MemoryKeyValueStore, type KeyValueStore } from './store/key-value-store';
export type { ExecutionLog, ExecutionLogEntry, ExecutionLogType } from './store/execution-log';
export type { CheckpointStore, RecordedMessage } from './store/checkpoint-store';
export { StoreWriteError, LogCorruptionError, type StoreWriteProblem } from './store/store-errors';
export { UnwritableEntryError } from './store/unwritable-entry-error';
export type { EngineDurabilityOptions } from './tracker/durable-runs';
export type { Resumed } from './control/restart/resumer';
export { FileTriggerStateStore, KeyValueTriggerStateStore, MemoryTriggerStateStore, type TriggerStateStore } from './triggers/trigger-state-store';
export type { CronFire, CronTriggerOptions, CronTriggerView } from './triggers/cron-triggers';
export { WorkerRegistry, WORKER_DEFAULTS, FRAME_ENVELOPE_BYTES, type WorkerRegistryOptions } from './workers/worker-registry';
export type { WorkerLink } from './workers/connected-worker';
export type { WorkerConnection } from './workers/worker-session';
export { WorkerAgent, type WorkerAgentOptions } from './workers/worker-agent';
export type { AgentSession, AgentSessionEvents, WorkerIdentity } from './workers/agent-session';
export { WORKER_METER_NAMES } from './workers/worker-metrics';
