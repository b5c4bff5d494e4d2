import { ConflictError, NotFoundError } from './engine-errors';
import type { RunDetail, RunSummary } from '../shared/api/runs.schema';
import type { SchedulerLimits, SchedulerLimitsPatch, SchedulerView, SetPriorityResult } from '../shared/api/scheduler.schema';
import type { RemoteAttemptInfo, WorkersView } from '../shared/api/workers.schema';
import type { SaveResult, StoredWorkflow, WorkflowSummary } from '../shared/api/workflows.schema';
import type { EventFilter, StudioEvent } from '../shared/events/events';
import type { Status } from '../shared/status/status';
import type { ExecutionId } from '../shared/workflow/ids';
import type { NodeTypeInfo } from '../shared/workflow/node-type';
import { hasErrors, type ValidationIssue } from '../shared/workflow/validation-issue';
import type { ControlPlane } from './control/control-plane';
import type { Resumed } from './control/restart/resumer';
import { createEngine, type EngineParts } from './create-engine';
import { validateDefinition } from './definitions/validate-definition';
import type { SessionCatalog } from './definitions/session-catalog';
import type { WorkflowDefinitions } from './definitions/workflow-definitions';
import type { EngineOptions } from './engine-options';
import type { EngineMetrics } from './observability/engine-metrics';
import type { RunTracing } from './observability/run-tracing';
import type { PluginRegistry } from './plugins/registry';
import type { Clock } from './runtime/clock';
import type { StartRequest } from './runtime/start/start-types';
import type { WorkflowRun } from './runtime/workflow-run';
import type { EventListener } from './tracker/event-bus';
import type { ProgressSnapshot, RunQuery, RunTracker } from './tracker/run-tracker';
import type { CronTriggers } from './triggers/cron-triggers';
import type { WorkerRegistry } from './workers/worker-registry';

export type { EngineOptions, EngineSchedulerOptions, EngineTrackerOptions } from './engine-options';
export type { StartRequest };

/**
 * The workflow engine: definitions, validation, runs and the event feed, with no UI or transport.
 * The host builds one per data folder and exposes it through the StudioApi. Its parts are composed in
 * dependency order by `createEngine`; this class is their facade.
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
  /** Prometheus meters in the engine's own registry (OBS-04). */
  readonly metrics: EngineMetrics;
  /** Run and node spans (OBS-05). */
  readonly tracing: RunTracing;
  /** Settles once boot recovery is done (DUR-01); at once without durability. Starts wait for it. */
  readonly ready: Promise<void>;
  /** CRON_TRIGGER schedules of the stored workflows; re-read after every definition write (EXT-01). */
  readonly triggers: CronTriggers;
  /** Workers connected to this host (SCL-01): the transport hands each connection to `workers.connect`. */
  readonly workers: WorkerRegistry;
  private readonly parts: EngineParts;

  constructor(options: EngineOptions = {}) {
    const parts = (this.parts = createEngine(options));
    ({
      registry: this.registry,
      clock: this.clock,
      workflows: this.workflows,
      sessions: this.sessions,
      control: this.control,
      metrics: this.metrics,
      tracing: this.tracing,
      ready: this.ready,
      triggers: this.triggers,
      workers: this.workers,
    } = parts);
  }

  private get tracker(): RunTracker {
    return this.parts.tracker;
  }

  /**
   * Resumes an ABORTED run once, as a new run that skips the nodes with an end marker (DUR-03); needs the
   * engine option `durability`. CONFLICT when the run was not aborted, was resumed already, or its workflow changed.
   */
  resumeRun(executionId: string, actor: string): Promise<Resumed> {
    // A standby refuses before it looks anything up (SCL-02): the run may be the leader's.
    try {
      this.parts.admission.refuseUnlessLeader();
    } catch (error) {
      return Promise.reject(error);
    }
    const durable = this.parts.durable;
    if (!durable)
      return Promise.reject(
        new ConflictError('runs can be resumed only with a durable execution log (the memory store keeps nothing across a restart)', 'executionId'),
      );
    return durable.resume(executionId, actor);
  }

  /** A run from the tracker, or else from the durable execution log (runs older than the tracker keeps). */
  async findRun(executionId: string): Promise<RunDetail> {
    const live = this.tracker.get(executionId);
    if (live) return live;
    const logged = await this.parts.durable?.findRun(executionId);
    if (logged) return logged;
    throw new NotFoundError(`run "${executionId}" does not exist`, 'executionId');
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
  startRun(request: StartRequest): Promise<{ executionId: ExecutionId }> {
    return this.parts.starts.start(request);
  }

  /** The live run, for the control plane (valves, pause, stop); undefined once it has ended. */
  liveRun(executionId: string): WorkflowRun | undefined {
    return this.parts.runs.get(executionId);
  }

  hasLiveRuns(session: string): boolean {
    return this.parts.runs.hasLiveRuns(session);
  }

  getRun(executionId: string): RunDetail {
    const run = this.tracker.get(executionId);
    if (!run) throw new NotFoundError(`run "${executionId}" does not exist`, 'executionId');
    return run;
  }

  listRuns(query: RunQuery): RunSummary[] {
    return this.tracker.list(query);
  }

  /** Resolves with the run's final status (at once for a finished run). */
  async waitForRun(executionId: string): Promise<Status> {
    return this.parts.runs.wait(executionId) ?? this.getRun(executionId).status;
  }

  /** Cancels a live run, or a queued start (it ends CANCELLED without running). */
  cancelRun(executionId: string): void {
    if (!this.parts.runs.cancel(executionId)) throw new ConflictError(`run "${executionId}" is not running`, 'executionId');
  }

  /** The scheduler (ADM-01/03/04): limits, gauges, running runs, the queue in admission order with explanations. */
  schedulerView(limit = 200): Promise<SchedulerView> {
    return this.parts.scheduler.view(limit);
  }

  /** The limits in force: configured, or the newest logged change once `ready` (ADM-03). */
  schedulerLimits(): SchedulerLimits {
    return this.parts.admission.limits;
  }

  /** Who recorded the limits in force and when (ADM-03: the log wins over configuration); null while they are the configured ones. */
  schedulerLimitsChange(): Promise<{ actor: string; at: number } | null> {
    return this.parts.scheduler.loggedChange();
  }

  /** Changes limits live (ADM-03): reviewed, applied at once, recorded under run id `scheduler`, audited. */
  setSchedulerLimits(patch: SchedulerLimitsPatch, actor: string): Promise<SchedulerLimits> {
    return this.parts.scheduler.setLimits(patch, actor);
  }

  /** Moves a QUEUED start to another priority (ADM-03); refused for a run that is not waiting. */
  setRunPriority(executionId: string, priority: number, actor: string): Promise<SetPriorityResult> {
    return this.parts.scheduler.setPriority(executionId, priority, actor);
  }

  /** Messages dropped by edge buffers (`yukta.edge.dropped`), by workflow and node. */
  edgeDropCounts(): ReadonlyMap<string, number> {
    return this.parts.edgeDrops.counts;
  }

  /** Every engine event, in order, as it happens. */
  subscribe(listener: EventListener): () => void {
    return this.parts.bus.subscribe(listener);
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
    return this.parts.runs.liveCount;
  }

  /**
   * Shutdown (ADM-01): admits nothing new, refuses queued starts, gives running runs
   * `yukta.execution.shutdown-timeout` (30 s) to finish, then cancels the rest and waits for them to end.
   */
  async shutdown(): Promise<void> {
    this.control.close();
    await this.triggers.close();
    await this.parts.runs.shutdown();
    this.workers.close();
    this.tracker.close();
  }

  /** `workers.list` (SCL-01): pools and connected workers. */
  workersView(): WorkersView {
    return this.workers.view();
  }

  /** Which worker ran each remote attempt of a run (the newest 500 per run, in memory). */
  remoteAttempts(executionId: string, nodeId?: string): RemoteAttemptInfo[] {
    return this.parts.placement.records.of(executionId, nodeId);
  }
}
