import { StudioApiError } from '../shared/api/errors';
import type { RunDetail, RunSummary } from '../shared/api/runs.schema';
import { SchedulerLimitsPatch, type SchedulerLimits, type SchedulerView, type SetPriorityResult } from '../shared/api/scheduler.schema';
import { DEFAULT_MAX_VERSIONS, type SaveResult, type StoredWorkflow, type WorkflowSummary } from '../shared/api/workflows.schema';
import type { Status } from '../shared/status/status';
import type { NodeTypeInfo } from '../shared/workflow/node-type';
import { hasErrors, type ValidationIssue } from '../shared/workflow/validation-issue';
import { ControlPlane, type ControlOptions } from './control/control-plane';
import { SessionCatalog } from './definitions/session-catalog';
import { validateDefinition } from './definitions/validate-definition';
import { WorkflowDefinitions } from './definitions/workflow-definitions';
import { builtinPlugins } from './plugins/builtin';
import type { Plugin } from './plugins/contract';
import { PluginRegistry } from './plugins/registry';
import { createPluginServices, type EngineSecurityOptions } from './plugins/services';
import { SystemClock, type Clock } from './runtime/clock';
import { seededRandom } from './runtime/random';
import { RunLauncher } from './runtime/run-launcher';
import { DefinitionResolver } from './runtime/start/definition-resolver';
import { RunFactory } from './runtime/start/run-factory';
import { StartPipeline } from './runtime/start/start-pipeline';
import type { StartRequest } from './runtime/start/start-types';
import { SubWorkflows } from './runtime/start/sub-workflows';
import { IdempotencyCache } from './scheduler/idempotency-cache';
import type { WorkflowRun } from './runtime/workflow-run';
import { AdmissionScheduler } from './scheduler/admission-scheduler';
import type { SchedulerCommandGate } from './scheduler/scheduler-commands';
import type { SchedulerLog } from './scheduler/scheduler-log';
import { SchedulerService } from './scheduler/scheduler-service';
import type { DefinitionStore } from './store/definition-store';
import { MemoryDefinitionStore } from './store/memory/memory-definition-store';
import { CronTriggers, type CronTriggerOptions } from './triggers/cron-triggers';
import { WatchedDefinitionStore } from './triggers/watched-definition-store';
import { DurableAuditLog } from './control/audit-log';
import type { Resumed } from './control/restart/resumer';
import { ExecutionSchedulerLog } from './scheduler/logged-scheduler-log';
import { DurableRuns, type EngineDurabilityOptions } from './tracker/durable-runs';
import { EventBus, type EventListener } from './tracker/event-bus';
import { RunTracker, type ProgressSnapshot, type RunQuery } from './tracker/run-tracker';
import { EngineMetrics } from './observability/engine-metrics';
import { RunTracing, type TracingOptions } from './observability/run-tracing';
import type { EventFilter, StudioEvent } from '../shared/events/events';

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
}

export type { StartRequest };

/**
 * The workflow engine: definitions, validation, runs and the event feed, with no UI or transport.
 * The host builds one per data folder and exposes it through the StudioApi.
 */
export class Engine {
  readonly registry: PluginRegistry;
  readonly clock: Clock;
  /** Definitions: validated saves, versions, restore, diff, delete (DEF-01, DEF-02). */
  readonly workflows: WorkflowDefinitions;
  /** Sessions: list, create, rename, delete, apply a configuration (DUR-05). */
  readonly sessions: SessionCatalog;
  /** Commands, audit, signals and approvals, restarts, reviewers, supervisors (CTL-01…08). */
  readonly control: ControlPlane;
  private readonly definitions: DefinitionStore;
  private readonly bus: EventBus;
  private readonly tracker: RunTracker;
  /** Prometheus meters in the engine's own registry (OBS-04). */
  readonly metrics: EngineMetrics;
  /** Run and node spans (OBS-05). */
  readonly tracing: RunTracing;
  private admission: AdmissionScheduler | null = null;
  private readonly runs: RunLauncher;
  private readonly resolver: DefinitionResolver;
  private readonly idempotency: IdempotencyCache;
  private readonly starts: StartPipeline;
  private readonly scheduler: SchedulerService;
  private readonly edgeDrops = new Map<string, number>();
  private readonly durable: DurableRuns | null;
  /** Settles once boot recovery is done (DUR-01); at once without durability. Starts wait for it. */
  readonly ready: Promise<void>;
  /** CRON_TRIGGER schedules of the stored workflows; re-read after every definition write (EXT-01). */
  readonly triggers: CronTriggers;

  constructor(options: EngineOptions = {}) {
    this.registry = new PluginRegistry(options.plugins ?? builtinPlugins());
    this.clock = options.clock ?? new SystemClock();
    this.definitions = new WatchedDefinitionStore(options.definitions ?? new MemoryDefinitionStore(), (write) => this.triggers.changed(write));
    const services = createPluginServices(options.security ?? {}, this.clock);
    // Secret values resolved for a request are masked in every event, log line and error (SEC-02).
    this.bus = new EventBus(options.onListenerError, (event) => services.redactor.redact(event));
    this.metrics = new EngineMetrics({
      tracker: () => this.tracker,
      scheduler: () => ({ running: this.admission?.runningCount ?? 0, queued: this.admission?.queuedCount ?? 0, rejected: this.admission!.rejectedCounts() }),
      checkpoints: () => this.control.checkpoints.stats(),
      edgeDrops: () => this.edgeDrops,
      supervisorDrops: () => this.control.metrics()['yukta.tracker.dropped{kind=supervisor}'] ?? 0,
    });
    this.tracing = new RunTracing(options.tracing);
    this.tracker = new RunTracker({
      ...options.tracker,
      maxRuns: options.maxRuns ?? 1000,
      maxResultsPerRun: options.maxResultsPerRun ?? 1000,
      now: () => this.clock.now(),
      observers: [this.metrics, this.tracing],
      onError: options.onListenerError,
    });
    this.bus.subscribe(this.tracker.apply);
    const durability = options.durability;
    const auditLog = durability ? new DurableAuditLog(durability.log) : undefined;
    this.control = this.createControlPlane(auditLog && !options.control?.log ? { ...options.control, log: auditLog } : options.control);
    this.durable = durability ? this.createDurableRuns(durability, options) : null;
    this.ready = this.durable?.ready ?? Promise.resolve();
    const sched = { ...(auditLog ? { log: new ExecutionSchedulerLog(auditLog) } : {}), ...options.scheduler };
    const admission = (this.admission = new AdmissionScheduler({ clock: this.clock, limits: SchedulerLimitsPatch.parse(sched.limits ?? {}), isLeader: sched.isLeader, onCallbackError: options.onListenerError }));
    this.scheduler = new SchedulerService({ scheduler: admission, clock: this.clock, log: sched.log, gate: sched.gate ?? this.control.schedulerGate(), statusOf: (id) => this.tracker.status(id), queuedTicket: (id) => this.runs.queuedTicket(id) });
    this.resolver = new DefinitionResolver({ registry: this.registry, definitions: this.definitions });
    this.idempotency = new IdempotencyCache(this.clock, options.idempotencyTtlMs ?? 10 * 60_000, options.idempotencyMaxKeys ?? 100_000);
    this.runs = new RunLauncher({ clock: this.clock, bus: this.bus, scheduler: admission });
    const factory = new RunFactory({
      clock: this.clock,
      random: seededRandom(options.randomSeed ?? Math.floor(Math.random() * 2 ** 32)),
      bus: this.bus,
      channelCapacity: options.channelCapacity ?? 64,
      freezeMessages: options.freezeMessages ?? process.env.NODE_ENV !== 'production',
      edgeDropped: (workflowId, nodeId) => this.countEdgeDrop(workflowId, nodeId),
      archive: this.control.archive,
      control: this.control.runControl,
      services,
    });
    this.starts = new StartPipeline({
      clock: this.clock,
      ready: Promise.all([this.scheduler.ready, this.ready]).then(() => undefined),
      resolver: this.resolver,
      idempotency: this.idempotency,
      scheduler: admission,
      factory,
      children: new SubWorkflows({ resolver: this.resolver, factory, registry: this.runs }),
      registry: this.runs,
      journal: this.durable?.journal ?? null,
      acknowledge: durability ? () => durability.log.flush() : null,
      services,
    });
    // A replaced version's prepared copy is dropped (DEF-03, DUR-05); its key is content, so this only frees memory.
    const replaced = (version: string) => this.resolver.dropPrepared(version);
    this.workflows = new WorkflowDefinitions({ store: this.definitions, registry: this.registry, clock: this.clock, maxVersions: options.maxVersions ?? DEFAULT_MAX_VERSIONS, replaced });
    this.sessions = new SessionCatalog({ store: this.definitions, workflows: this.workflows, hasLiveRuns: (session) => this.hasLiveRuns(session), replaced });
    // Cron fires start runs through the same admission path as any start (ADM-01).
    this.triggers = new CronTriggers({ ...options.triggers, clock: this.clock, workflows: () => this.definitions.list(), start: (request) => this.startRun(request), onError: options.onListenerError });
    void this.ready.then(() => this.triggers.sync(), () => undefined);
  }

  /**
   * Resumes an ABORTED run once, as a new run that skips the nodes with an end marker (DUR-03); needs the
   * engine option `durability`. CONFLICT when the run was not aborted, was resumed already, or its workflow changed.
   */
  resumeRun(executionId: string, actor: string): Promise<Resumed> {
    if (!this.durable) return Promise.reject(new StudioApiError('CONFLICT', 'runs can be resumed only with a durable execution log (the memory store keeps nothing across a restart)', 'executionId'));
    return this.durable.resume(executionId, actor);
  }

  /** A run from the tracker, or else from the durable execution log (runs older than the tracker keeps). */
  async findRun(executionId: string): Promise<RunDetail> {
    const live = this.tracker.get(executionId);
    if (live) return live;
    const logged = await this.durable?.findRun(executionId);
    if (logged) return logged;
    throw new StudioApiError('NOT_FOUND', `run "${executionId}" does not exist`, 'executionId');
  }

  private createDurableRuns(durability: EngineDurabilityOptions, options: EngineOptions): DurableRuns {
    const durable = new DurableRuns({
      log: durability.log,
      checkpoints: this.control.checkpoints,
      archive: this.control.archive,
      starts: () => ({ resolver: this.resolver, pipeline: this.starts, registry: this.runs, idempotency: this.idempotency }),
      definitions: this.definitions,
      clock: this.clock,
      restoreHistory: (runs) => this.tracker.restore(runs),
      maxRuns: options.maxRuns ?? 1000,
      idempotencyMaxKeys: options.idempotencyMaxKeys ?? 100_000,
      autoResume: durability.autoResume ?? false,
      onError: options.onListenerError ?? (() => undefined),
    });
    this.bus.subscribe(durable.journal.listen);
    return durable;
  }

  nodeTypes(): NodeTypeInfo[] {
    return this.registry.list();
  }

  validate(raw: unknown): { valid: boolean; issues: ValidationIssue[] } {
    const { issues } = validateDefinition(raw, this.registry);
    return { valid: !hasErrors(issues), issues };
  }

  /** Validates and stores a definition; an invalid one is refused and nothing is written. */
  saveWorkflow(session: string, raw: unknown, note?: string): Promise<SaveResult> {
    return this.workflows.save(session, raw, note);
  }

  getWorkflow(session: string, workflowId: string): Promise<StoredWorkflow> {
    return this.workflows.get(session, workflowId);
  }

  listWorkflows(session?: string): Promise<WorkflowSummary[]> {
    return this.workflows.list(session);
  }

  /**
   * Starts a run of the stored workflow (or of the saved version named by `yukta.version` in the payload);
   * returns once the run is announced, not when it ends.
   */
  startRun(request: StartRequest): Promise<{ executionId: string }> {
    return this.starts.start(request);
  }

  /** The live run, for the control plane (valves, pause, stop); undefined once it has ended. */
  liveRun(executionId: string): WorkflowRun | undefined {
    return this.runs.get(executionId);
  }

  hasLiveRuns(session: string): boolean {
    return this.runs.hasLiveRuns(session);
  }

  getRun(executionId: string): RunDetail {
    const run = this.tracker.get(executionId);
    if (!run) throw new StudioApiError('NOT_FOUND', `run "${executionId}" does not exist`, 'executionId');
    return run;
  }

  listRuns(query: RunQuery): RunSummary[] {
    return this.tracker.list(query);
  }

  /** Resolves with the run's final status (at once for a finished run). */
  async waitForRun(executionId: string): Promise<Status> {
    return this.runs.wait(executionId) ?? this.getRun(executionId).status;
  }

  /** Cancels a live run, or a queued start (it ends CANCELLED without running). */
  cancelRun(executionId: string): void {
    if (!this.runs.cancel(executionId)) throw new StudioApiError('CONFLICT', `run "${executionId}" is not running`, 'executionId');
  }

  /** The scheduler (ADM-01/03/04): limits, gauges, running runs, the queue in admission order with explanations. */
  schedulerView(limit = 200): Promise<SchedulerView> {
    return this.scheduler.view(limit);
  }

  /** Changes limits live (ADM-03): reviewed, applied at once, recorded under run id `scheduler`, audited. */
  setSchedulerLimits(patch: SchedulerLimitsPatch, actor: string): Promise<SchedulerLimits> {
    return this.scheduler.setLimits(patch, actor);
  }

  /** Moves a QUEUED start to another priority (ADM-03); refused for a run that is not waiting. */
  setRunPriority(executionId: string, priority: number, actor: string): Promise<SetPriorityResult> {
    return this.scheduler.setPriority(executionId, priority, actor);
  }

  /** Messages dropped by edge buffers (`yukta.edge.dropped`), by workflow and node. */
  edgeDropCounts(): ReadonlyMap<string, number> {
    return this.edgeDrops;
  }

  private countEdgeDrop(workflowId: string, nodeId: string): void {
    const key = `${workflowId}/${nodeId}`;
    this.edgeDrops.set(key, (this.edgeDrops.get(key) ?? 0) + 1);
  }

  /** Every engine event, in order, as it happens. */
  subscribe(listener: EventListener): () => void {
    return this.bus.subscribe(listener);
  }

  /**
   * Late-subscriber catch-up (OBS-01): for a filter naming a run, its current state as events in feed order
   * (run, nodes, kept results and log lines; a replayed end says `truncated` when the replay dropped any).
   * Read it in the same turn as `subscribe`, and the two together miss and repeat nothing.
   */
  catchUp(filter: EventFilter): StudioEvent[] {
    return this.tracker.catchUp(filter);
  }

  /** A run's newest progress snapshots (at most 200), each with its `definitionVersion` (OBS-01). */
  runHistory(executionId: string): ProgressSnapshot[] {
    return this.tracker.history(executionId);
  }

  /** A live run's log lines (at most 10,000; OBS-02). */
  runLogs(executionId: string): StudioEvent[] {
    return this.tracker.logs(executionId);
  }

  /** The tracker's live state (sessions, cleanup), for tests and diagnostics. */
  get trackerState(): Pick<RunTracker, 'liveSessions' | 'isLive' | 'queueDepth'> {
    return this.tracker;
  }

  get liveRunCount(): number {
    return this.runs.liveCount;
  }

  /**
   * Shutdown (ADM-01): admits nothing new, refuses queued starts, gives running runs
   * `yukta.execution.shutdown-timeout` (30 s) to finish, then cancels the rest and waits for them to end.
   */
  async shutdown(): Promise<void> {
    this.control.close();
    await this.triggers.close();
    await this.runs.shutdown();
    this.tracker.close();
  }

  /** The control plane's view of the engine; called lazily, so the launcher may be built after it. */
  private createControlPlane(options: ControlOptions | undefined): ControlPlane {
    const node = (executionId: string, nodeId: string) => this.tracker.node(executionId, nodeId);
    return new ControlPlane(
      {
        clock: this.clock,
        publish: (event) => void this.bus.publish(event),
        subscribe: (listener) => this.bus.subscribe(listener),
        liveRun: (id) => this.runs.get(id),
        liveRuns: () => this.runs.liveRuns(),
        runStatus: (id) => this.tracker.status(id),
        nodeState: node,
        withdrawQueued: (id) => this.runs.get(id) === undefined && this.runs.cancel(id),
        startPrepared: (start) => this.starts.startPrepared(start),
        setLimits: (limits, actor) => this.scheduler.setLimits(SchedulerLimitsPatch.parse(limits), actor),
        setPriority: (id, priority, actor) => this.scheduler.setPriority(id, priority, actor),
      },
      options,
    );
  }
}
