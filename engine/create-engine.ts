import { SchedulerLimitsPatch } from '../shared/api/scheduler.schema';
import { DEFAULT_MAX_VERSIONS } from '../shared/api/workflows.schema';
import { DurableAuditLog } from './control/audit-log';
import { createControlParts } from './control/control-parts';
import { ControlPlane } from './control/control-plane';
import { SessionCatalog } from './definitions/session-catalog';
import { WorkflowDefinitions } from './definitions/workflow-definitions';
import type { EngineOptions } from './engine-options';
import { EdgeDrops } from './observability/edge-drops';
import { EngineMetrics } from './observability/engine-metrics';
import { RunMeters } from './observability/run-meters';
import { RunTracing } from './observability/run-tracing';
import { builtinPlugins } from './plugins/builtin';
import { PluginRegistry } from './plugins/registry';
import { createPluginServices } from './plugins/services';
import { SystemClock, type Clock } from './runtime/clock';
import { seededRandom } from './runtime/random';
import { RunLauncher } from './runtime/run-launcher';
import { DefinitionResolver } from './runtime/start/definition-resolver';
import { RunFactory } from './runtime/start/run-factory';
import { StartPipeline } from './runtime/start/start-pipeline';
import { SubWorkflows } from './runtime/start/sub-workflows';
import { AdmissionScheduler } from './scheduler/admission-scheduler';
import { IdempotencyCache } from './scheduler/idempotency-cache';
import { ExecutionSchedulerLog } from './scheduler/logged-scheduler-log';
import { SchedulerService } from './scheduler/scheduler-service';
import { MemoryDefinitionStore } from './store/memory/memory-definition-store';
import { recoverRuns } from './tracker/boot-recovery';
import { DurableRuns } from './tracker/durable-runs';
import { EventBus } from './tracker/event-bus';
import { ExecutionJournal } from './tracker/execution-journal';
import { RunTracker } from './tracker/run-tracker';
import { CronTriggers } from './triggers/cron-triggers';
import { WatchedDefinitionStore } from './triggers/watched-definition-store';
import { WorkerPlacement } from './workers/remote-processor';
import { WorkerRegistry } from './workers/worker-registry';

/** The engine's parts, each built after everything it uses (`createEngine`). */
export interface EngineParts {
  readonly registry: PluginRegistry;
  readonly clock: Clock;
  readonly bus: EventBus;
  readonly tracker: RunTracker;
  readonly tracing: RunTracing;
  readonly metrics: EngineMetrics;
  readonly edgeDrops: EdgeDrops;
  readonly admission: AdmissionScheduler;
  readonly scheduler: SchedulerService;
  readonly runs: RunLauncher;
  readonly starts: StartPipeline;
  readonly control: ControlPlane;
  readonly durable: DurableRuns | null;
  readonly ready: Promise<void>;
  readonly workflows: WorkflowDefinitions;
  readonly sessions: SessionCatalog;
  readonly triggers: CronTriggers;
  /** Workers connected to this host (SCL-01) and the placement of remote attempts on them. */
  readonly workers: WorkerRegistry;
  readonly placement: WorkerPlacement;
}

/**
 * Builds the engine in dependency order (ARCHITECTURE.md "Engine shape"): every part is made after the parts
 * it uses, so none is reached before it exists. The two loops of the design are closed without "assigned
 * later" members: runs start child runs through `SubWorkflows`, handed each run's runner when it is made;
 * the cron schedules follow definition writes through the store's `watch`, registered once both exist.
 */
export function createEngine(options: EngineOptions = {}): EngineParts {
  const core = createCore(options);
  const runtime = createRuntime(core, options);
  const starting = createStarting(core, runtime);
  return createServices(core, runtime, starting, options);
}

type Core = ReturnType<typeof createCore>;
type Runtime = ReturnType<typeof createRuntime>;
type Starting = ReturnType<typeof createStarting>;

/** Plugins, clock, the event bus, admission, the tracker (with the meters and spans it reports to) and the workers. */
function createCore(options: EngineOptions) {
  const registry = new PluginRegistry(options.plugins ?? builtinPlugins());
  const clock = options.clock ?? new SystemClock();
  const onError = options.onListenerError;
  const services = createPluginServices(options.security ?? {}, clock);
  // Secret values resolved for a request are masked in every event, log line and error (SEC-02).
  const bus = new EventBus(onError, (event) => services.redactor.redact(event));
  const publish = (event: Parameters<EventBus['publish']>[0]) => void bus.publish(event);
  const durability = options.durability ?? null;
  const auditLog = durability ? new DurableAuditLog(durability.log) : undefined;
  const sched = { ...(auditLog ? { log: new ExecutionSchedulerLog(auditLog) } : {}), ...options.scheduler };
  const admission = new AdmissionScheduler({
    clock,
    limits: SchedulerLimitsPatch.parse(sched.limits ?? {}),
    isLeader: sched.isLeader,
    leader: sched.leader,
    onCallbackError: onError,
  });
  const meters = new RunMeters();
  const tracing = new RunTracing(options.tracing);
  const maxRuns = options.maxRuns ?? 1000;
  const tracker = new RunTracker({
    ...options.tracker,
    maxRuns,
    maxResultsPerRun: options.maxResultsPerRun ?? 1000,
    now: () => clock.now(),
    observers: [meters, tracing],
    onError,
  });
  bus.subscribe(tracker.apply);
  const workers = new WorkerRegistry({ ...options.workers, clock, metrics: meters.registry, isLeader: sched.isLeader });
  const placement = new WorkerPlacement(workers, clock);
  return { registry, clock, onError, services, bus, publish, durability, auditLog, sched, admission, meters, tracing, maxRuns, tracker, workers, placement };
}

/** Definitions and their preparation, the live-run registry, what runs record and control, and the run factory. */
function createRuntime(core: Core, options: EngineOptions) {
  const { registry, clock, bus, admission } = core;
  const definitions = new WatchedDefinitionStore(options.definitions ?? new MemoryDefinitionStore());
  const resolver = new DefinitionResolver({ registry, definitions, placement: core.placement });
  const idempotencyMaxKeys = options.idempotencyMaxKeys ?? 100_000;
  const idempotency = new IdempotencyCache(clock, options.idempotencyTtlMs ?? 10 * 60_000, idempotencyMaxKeys);
  const runs = new RunLauncher({ clock, bus, scheduler: admission });
  const controlParts = createControlParts({ clock, publish: core.publish, liveRuns: () => runs.liveRuns(), log: core.auditLog }, options.control);
  const edgeDrops = new EdgeDrops();
  const factory = new RunFactory({
    clock,
    random: seededRandom(options.randomSeed ?? Math.floor(Math.random() * 2 ** 32)),
    bus,
    channelCapacity: options.channelCapacity ?? 64,
    freezeMessages: options.freezeMessages ?? process.env.NODE_ENV !== 'production',
    edgeDropped: (workflowId, nodeId) => edgeDrops.count(workflowId, nodeId),
    archive: controlParts.archive,
    control: controlParts.runControl,
    services: core.services,
  });
  const children = new SubWorkflows({ resolver, factory, registry: runs });
  return { definitions, resolver, idempotency, idempotencyMaxKeys, runs, controlParts, edgeDrops, factory, children };
}

/** The execution journal and boot recovery (DUR-01…03), the scheduler's operator side, and the start pipeline. */
function createStarting(core: Core, runtime: Runtime) {
  const { clock, bus, durability, tracker } = core;
  const { resolver, idempotency, runs, controlParts } = runtime;
  const journal = durability ? new ExecutionJournal(durability.log) : null;
  if (journal) bus.subscribe(journal.listen);
  const resumedBefore = new Map<string, string>();
  const preparedVersion = (session: string, workflowId: string, version: string) => resolver.preparedVersion(session, workflowId, version);
  const { checkpoints, archive } = controlParts;
  // SCL-02: a standby recovers (the takeover) once it leads; stopped before that, it recovers nothing.
  const recover = durability
    ? () =>
        recoverRuns({
          log: durability.log,
          checkpoints,
          archive,
          preparedVersion,
          idempotency,
          restoreHistory: (r) => tracker.restore(r),
          now: () => clock.now(),
          maxRuns: core.maxRuns,
          idempotencyMaxKeys: runtime.idempotencyMaxKeys,
          resumedBefore,
        })
    : null;
  const recovered: Promise<string[]> = !recover ? Promise.resolve([]) : durability!.leadership ? durability!.leadership.then(recover, () => []) : recover();
  // Starts and cron schedules wait for boot recovery and for the supervisors' stored rules (DUR-04).
  const ready = Promise.all([recovered, controlParts.rules.loaded]).then(() => undefined);
  const scheduler = new SchedulerService({
    scheduler: core.admission,
    clock,
    log: core.sched.log,
    gate: core.sched.gate ?? controlParts.audit.schedulerGate(),
    statusOf: (id) => tracker.status(id),
    queuedTicket: (id) => runs.queuedTicket(id),
  });
  const starts = new StartPipeline({
    clock,
    ready: Promise.all([scheduler.ready, ready]).then(() => undefined),
    resolver,
    idempotency,
    scheduler: core.admission,
    factory: runtime.factory,
    children: runtime.children,
    registry: runs,
    journal,
    acknowledge: durability ? () => durability.log.flush() : null,
    services: core.services,
  });
  return { resumedBefore, preparedVersion, recovered, ready, scheduler, starts };
}

/** What the host calls: the control plane, resume, definitions and sessions, cron schedules, metrics. */
function createServices(core: Core, runtime: Runtime, starting: Starting, options: EngineOptions): EngineParts {
  const { clock, durability, tracker, admission } = core;
  const { runs } = runtime;
  const { scheduler, starts, ready } = starting;
  const control = createControlPlane(core, runtime, starting, options);
  const durable = durability ? createDurableRuns(core, runtime, starting, durability) : null;
  const { workflows, sessions } = createDefinitionServices(core, runtime, options);
  const triggers = createCronTriggers(core, runtime, starting, options);
  const metrics = createMetrics(core, runtime, control);
  const { registry, bus, tracing, workers, placement } = core;
  return {
    registry,
    clock,
    bus,
    tracker,
    tracing,
    metrics,
    edgeDrops: runtime.edgeDrops,
    admission,
    scheduler,
    runs,
    starts,
    control,
    durable,
    ready,
    workflows,
    sessions,
    triggers,
    workers,
    placement,
  };
}

/** The control plane over the live runs, the tracker, the start pipeline and the scheduler service. */
function createControlPlane(core: Core, runtime: Runtime, starting: Starting, options: EngineOptions): ControlPlane {
  const { clock, tracker } = core;
  const { runs, controlParts } = runtime;
  const { scheduler, starts } = starting;
  return new ControlPlane(
    {
      clock,
      publish: core.publish,
      subscribe: (listener) => core.bus.subscribe(listener),
      liveRun: (id) => runs.get(id),
      runStatus: (id) => tracker.status(id),
      nodeState: (id, nodeId) => tracker.node(id, nodeId),
      withdrawQueued: (id) => runs.get(id) === undefined && runs.cancel(id),
      startPrepared: (start) => starts.startPrepared(start),
      setLimits: (limits, actor) => scheduler.setLimits(SchedulerLimitsPatch.parse(limits), actor),
      setPriority: (id, priority, actor) => scheduler.setPriority(id, priority, actor),
    },
    controlParts,
    options.control,
  );
}

/** Workflow definitions and the session catalog over the definition store. */
function createDefinitionServices(core: Core, runtime: Runtime, options: EngineOptions): { workflows: WorkflowDefinitions; sessions: SessionCatalog } {
  const { definitions, resolver, runs } = runtime;
  // A replaced version's prepared copy is dropped (DEF-03, DUR-05); its key is content, so this only frees memory.
  const replaced = (version: string) => resolver.dropPrepared(version);
  const workflows = new WorkflowDefinitions({
    store: definitions,
    registry: core.registry,
    clock: core.clock,
    maxVersions: options.maxVersions ?? DEFAULT_MAX_VERSIONS,
    replaced,
  });
  const sessions = new SessionCatalog({ store: definitions, workflows, hasLiveRuns: (session) => runs.hasLiveRuns(session), replaced });
  return { workflows, sessions };
}

/** Cron schedules: they follow definition writes and start syncing once the engine is ready. */
function createCronTriggers(core: Core, runtime: Runtime, starting: Starting, options: EngineOptions): CronTriggers {
  const { definitions } = runtime;
  const { starts, ready } = starting;
  // Cron fires start runs through the same admission path as any start (ADM-01).
  const triggers = new CronTriggers({
    ...options.triggers,
    clock: core.clock,
    workflows: () => definitions.list(),
    start: (request) => starts.start(request),
    onError: core.onError,
  });
  definitions.watch((write) => triggers.changed(write));
  void ready.then(
    () => triggers.sync(),
    () => undefined,
  );
  return triggers;
}

/** The tracker's `RunMeters` plus the gauges scraped from the scheduler, checkpoints, edges and the control plane. */
function createMetrics(core: Core, runtime: Runtime, control: ControlPlane): EngineMetrics {
  const { tracker, admission } = core;
  const { checkpoints } = runtime.controlParts;
  return new EngineMetrics(
    {
      tracker: () => tracker,
      scheduler: () => ({ running: admission.runningCount, queued: admission.queuedCount, rejected: admission.rejectedCounts() }),
      checkpoints: () => checkpoints.stats(),
      edgeDrops: () => runtime.edgeDrops.counts,
      supervisorDrops: () => control.metrics()['yukta.tracker.dropped{kind=supervisor}'] ?? 0,
    },
    core.meters,
  );
}

/** Resume and auto-resume of ABORTED runs (DUR-03), once boot recovery is done. */
function createDurableRuns(core: Core, runtime: Runtime, starting: Starting, durability: NonNullable<EngineOptions['durability']>): DurableRuns {
  const { definitions, runs } = runtime;
  return new DurableRuns({
    log: durability.log,
    checkpoints: runtime.controlParts.checkpoints,
    now: () => core.clock.now(),
    currentVersion: async (session, workflowId) => (await definitions.versions(session, workflowId))[0]?.version ?? null,
    prepared: starting.preparedVersion,
    startPrepared: (start) => starting.starts.startPrepared(start),
    cancel: (id) => void runs.cancel(id),
    resumedBefore: starting.resumedBefore,
    recovered: starting.recovered,
    autoResume: durability.autoResume ?? false,
    onError: core.onError ?? (() => undefined),
  });
}
