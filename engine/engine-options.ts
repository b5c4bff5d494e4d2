import type { SchedulerLimitsPatch } from '../shared/api/scheduler.schema';
import type { ControlOptions } from './control/control-plane';
import type { TracingOptions } from './observability/run-tracing';
import type { Plugin } from './plugins/contract';
import type { EngineSecurityOptions } from './plugins/services';
import type { Clock } from './runtime/clock';
import type { SchedulerCommandGate } from './scheduler/scheduler-commands';
import type { SchedulerLog } from './scheduler/scheduler-log';
import type { DefinitionStore } from './store/definition-store';
import type { EngineDurabilityOptions } from './tracker/durable-runs';
import type { CronTriggerOptions } from './triggers/cron-triggers';
import type { WorkerRegistryOptions } from './workers/worker-registry';

/** The engine's options (`new Engine(options)`): stores, plugins, clock and the settings of each part. */
export interface EngineOptions {
  definitions?: DefinitionStore;
  plugins?: ReadonlyArray<Plugin<never>>;
  clock?: Clock;
  /** Capacity of each node's input channel (64): the most messages waiting in front of a node (ENG-01). */
  channelCapacity?: number;
  /** Runs kept in memory for `runs.get`/`runs.list` (1000). */
  maxRuns?: number;
  /** Results kept per run (1000). */
  maxResultsPerRun?: number;
  /** How long a start's idempotency key is remembered (`yukta.start.idempotency-ttl`, 10 min). */
  idempotencyTtlMs?: number;
  /** Most idempotency keys remembered (`yukta.start.idempotency-max-keys`, 100000). */
  idempotencyMaxKeys?: number;
  /** Deep-freeze messages so a plugin mutating its input throws (default: on unless NODE_ENV is production). */
  freezeMessages?: boolean;
  /** Seed of retry jitter, for reproducible tests. */
  randomSeed?: number;
  /** Newest versions kept per workflow (`yukta.definitions.max-versions`, 20); older ones are deleted. */
  maxVersions?: number;
  /** Receives errors thrown by event listeners. */
  onListenerError?: (error: unknown) => void;
  /** Admission (ADM-01, ADM-03): configured limits (the execution settings), the log of live changes, the command gate. */
  scheduler?: EngineSchedulerOptions;
  /** The control plane (CTL-01…08): audit log, reviewers, supervisors, restart archive and its caps. */
  control?: ControlOptions;
  /** Execution safety (SEC-02, SEC-03): settings, secrets, the environment variables read; plugins get them as `ctx.services`. */
  security?: EngineSecurityOptions;
  /** The durable execution log, boot recovery and resume (DUR-01…03); without it runs live in memory only. */
  durability?: EngineDurabilityOptions;
  /** CRON_TRIGGER schedules: where the last fire of each is kept (memory by default), missed-fire timing. */
  triggers?: CronTriggerOptions;
  /** Tracker live state (OBS-01, OBS-02). */
  tracker?: EngineTrackerOptions;
  /** OpenTelemetry spans (OBS-05): the global provider unless one is given; a no-op until one is registered. */
  tracing?: TracingOptions;
  /** Remote workers (SCL-01): lease, window, message limits, and where connection events are logged. */
  workers?: Omit<WorkerRegistryOptions, 'clock' | 'metrics' | 'isLeader'>;
}

export interface EngineTrackerOptions {
  /** `yukta.tracker.cleanup-ttl` (10 min): a finished run leaves live state (its log lines) this long after its end. */
  cleanupTtlMs?: number;
  /** `yukta.tracker.max-sessions` (0 = off): sessions with live state; beyond it the oldest one without a running run is evicted. */
  maxSessions?: number;
  /** Progress snapshots kept per run (200). */
  maxSnapshotsPerRun?: number;
  /** Log lines kept per live run and waiting to be applied (10,000). */
  maxLogLines?: number;
}

export interface EngineSchedulerOptions {
  /** Limits from configuration; every cap is off by default. The newest logged change wins over these. */
  limits?: SchedulerLimitsPatch;
  /** Where live limit changes are recorded and re-read at startup (memory until the durable log exists). */
  log?: SchedulerLog;
  /** The command pipeline's reviewers and audit (accept-all until it exists). */
  gate?: SchedulerCommandGate;
  /** False on a high-availability standby: every start is refused (`not_leader`). */
  isLeader?: () => boolean;
  /** On a standby: who leads (the refusal names it, SCL-02). */
  leader?: () => string | null;
}
