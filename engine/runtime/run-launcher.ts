import { randomUUID } from 'node:crypto';
import { StudioApiError } from '../../shared/api/errors';
import type { StoredWorkflow } from '../../shared/api/workflows.schema';
import type { Status } from '../../shared/status/status';
import { hasErrors } from '../../shared/workflow/validation-issue';
import { contentHash } from '../definitions/content-hash';
import { PreparationCache } from '../definitions/preparation-cache';
import { validateDefinition } from '../definitions/validate-definition';
import type { SubWorkflowResult } from '../plugins/contract';
import type { PluginRegistry } from '../plugins/registry';
import type { PluginServices } from '../plugins/services';
import { checkStartPayload } from '../security/message-size';
import type { AdmissionScheduler } from '../scheduler/admission-scheduler';
import { IdempotencyCache } from '../scheduler/idempotency-cache';
import { QueuedRuns } from '../scheduler/queued-runs';
import { readStartOptions, type StartOptions } from '../scheduler/start-options';
import { childBudget, withTimeBudget } from '../scheduler/time-budget';
import type { DefinitionStore } from '../store/definition-store';
import type { IdempotencyRecord, StartRecord } from '../store/start-record';
import { UnwritableEntryError } from '../store/unwritable-entry-error';
import type { EventBus } from '../tracker/event-bus';
import type { Slot, Ticket } from '../scheduler/admission-types';
import type { Clock } from './clock';
import { BadInputError, toErrorInfo } from './errors';
import { prepareWorkflow, type NodePlacement, type PreparedWorkflow } from './prepared-workflow';
import { seededRandom, type Random } from './random';
import { applyDebug, checkDebug, type RunDebugSettings } from './run-debug';
import { startRecordOf } from './start-record-of';
import type { RunControl, RunRecorder } from './run-hooks';
import { WorkflowRun } from './workflow-run';

export type { RunDebugSettings };

/** Start-payload keys the engine reads (SPEC: `yukta.*`). */
export const VERSION_KEY = 'yukta.version';
export const DEPTH_KEY = 'yukta.depth';
export const PARENT_KEY = 'yukta.parentExecutionId';
/** Deepest sub-workflow nesting (ENG-07). */
export const MAX_DEPTH = 5;
/** The run deadline when the session sets none (ENG-05, DUR-05): 3600 s. */
export const DEFAULT_RUN_TIMEOUT_MS = 3_600_000;

export interface StartRequest {
  session: string;
  workflowId: string;
  payload: Record<string, unknown>;
  /** A repeat with the same key, session and workflow returns the first execution id (ADM-02). */
  idempotencyKey?: string | undefined;
  /** Valve settings applied before the first message moves (breakpoints set on the canvas before Run). */
  debug?: RunDebugSettings | undefined;
}


export interface RunLauncherOptions {
  registry: PluginRegistry;
  clock: Clock;
  definitions: DefinitionStore;
  bus: EventBus;
  channelCapacity: number;
  freezeMessages: boolean;
  /** Seed of backoff jitter; random when absent. */
  randomSeed?: number | undefined;
  idempotencyTtlMs: number;
  idempotencyMaxKeys: number;
  /** Counts a message dropped by an edge buffer (`yukta.edge.dropped`). */
  edgeDropped(workflowId: string, nodeId: string): void;
  /** Admission (ADM-01): every top-level start takes its slot here; sub-workflows never do. */
  scheduler: AdmissionScheduler;
  /** Settles once the scheduler's recorded limits are re-applied (ADM-03); starts wait for it. */
  schedulerReady?: Promise<void> | undefined;
  /** Archives each top-level run and records its node outputs (CTL-04); sub-workflow runs are not archived. */
  archive?: { begin(run: { executionId: string; session: string; workflowId: string; prepared: PreparedWorkflow; payload: Record<string, unknown>; unrecorded?: ReadonlySet<string> | undefined }): RunRecorder } | undefined;
  /** Serves the plugins' `ctx.control` (CTL-05, CTL-08). */
  control?: RunControl | undefined;
  /** The plugins' `ctx.services` (SEC-02, SEC-03, EXT-03). */
  services?: PluginServices | undefined;
  /** Remote processors for nodes with `engine.placement` (SCL-01), chosen at preparation. */
  placement?: NodePlacement | undefined;
  /**
   * The durability barrier of a new start (DUR-01): resolves once its RUN_STARTED (and idempotency key) is
   * stored; a rejection refuses the start (the run is cancelled, nothing was acknowledged).
   */
  acknowledge?: ((executionId: string) => Promise<void>) | undefined;
}

/** A start of a prepared graph with a payload (restart, restart-from-node, retry: CTL-04). */
export interface PreparedStart {
  session: string;
  workflowId: string;
  prepared: PreparedWorkflow;
  payload: Record<string, unknown>;
  /** A resume of an ABORTED run (DUR-03). */
  resume?: ResumeStart | undefined;
}

/** What a resume adds to a prepared start (DUR-03). */
export interface ResumeStart {
  /** The ABORTED run it continues. */
  from: string;
  /** The original run's scope and replayed inputs, kept for a later resume. */
  scope: string[];
  inputs: string[];
  /** Replayed nodes whose checkpoints are copied over instead of recorded again. */
  unrecorded: ReadonlySet<string>;
  /** Runs once the new id exists, before the run is built (copies checkpoints and signal answers). */
  beforeBuild(executionId: string): void;
}

interface LaunchSpec {
  session: string;
  workflowId: string;
  payload: Record<string, unknown>;
  collectResults: boolean;
  debug?: RunDebugSettings | undefined;
  /** `yukta.timeBudget` (ADM-04), inherited by sub-workflows. */
  timeBudgetMs?: number | undefined;
  idempotency?: IdempotencyRecord | undefined;
  /** Replayed nodes not recorded again (a resume copies their checkpoints). */
  unrecorded?: ReadonlySet<string> | undefined;
}

/**
 * A start that takes a slot (ADM-01): new starts, and the entry point for restart, restart-from-node and
 * resume. The definition is prepared before; `build` makes the run once the slot is granted, with the id
 * that was handed out.
 */
export interface AdmittedStart {
  session: string;
  workflowId: string;
  /** Announces a queued start (its version and node ids). */
  prepared: PreparedWorkflow;
  admission: Pick<StartOptions, 'priority' | 'fairnessKey' | 'fairnessWeight'>;
  build(executionId: string): WorkflowRun;
  /** The start payload, for the execution log's RUN_STARTED (DUR-01); absent: an empty payload. */
  payload?: Record<string, unknown> | undefined;
  /** Resume origin, scope and inputs, idempotency key (DUR-01, DUR-03); derived from `prepared` when absent. */
  origin?: Partial<Pick<StartRecord, 'resumedFrom' | 'scope' | 'inputs' | 'idempotency'>> | undefined;
}

/**
 * Starts runs: resolves the definition (or the saved version named by `yukta.version`), prepares it
 * through the content-keyed cache (DEF-03), honours idempotency keys (ADM-02), takes a slot from the
 * scheduler (ADM-01: after preparation, before the id is handed out), applies the session's run deadline
 * and the start's time budget (ADM-04), and runs sub-workflows as children of their parent on its slot
 * (ENG-07). Keeps the live runs and the queued starts.
 */
export class RunLauncher {
  private readonly live = new Map<string, WorkflowRun>();
  private readonly preparations = new PreparationCache();
  private readonly idempotency: IdempotencyCache;
  private readonly queued: QueuedRuns;
  private readonly random: Random;
  /** The start being announced right now (inside `startAdmitted`), for the execution log's RUN_STARTED. */
  private announcing: { executionId: string; start: AdmittedStart } | null = null;

  constructor(private readonly options: RunLauncherOptions) {
    this.idempotency = new IdempotencyCache(options.clock, options.idempotencyTtlMs, options.idempotencyMaxKeys);
    this.random = seededRandom(options.randomSeed ?? Math.floor(Math.random() * 2 ** 32));
    this.queued = new QueuedRuns(options.clock, (event) => options.bus.publish(event));
  }

  /**
   * Starts a run; returns once it is announced (RUNNING, or QUEUED waiting for a slot), not when it ends.
   * A start refused by the scheduler throws (RATE_LIMITED, QUEUE_FULL, UNAVAILABLE) and gets no id. With
   * an idempotency key, a repeat (even a concurrent one) gets the first run's id; the same key with a
   * different payload is a CONFLICT.
   */
  async start(request: StartRequest): Promise<{ executionId: string }> {
    checkStartPayload(request.payload, this.options.services?.limits.maxMessageBytes, this.options.services?.limits.maxDepth);
    const options = readStartOptions(request.payload);
    const spec: LaunchSpec = { session: request.session, workflowId: request.workflowId, payload: request.payload, collectResults: false, debug: request.debug, timeBudgetMs: options.timeBudgetMs };
    const key = request.idempotencyKey;
    if (key === undefined) return { executionId: await this.acknowledged(this.launchAdmitted(spec, options)) };
    const scope = `${request.session}\u0000${request.workflowId}`;
    const payloadHash = contentHash(request.payload);
    const found = this.idempotency.lookup(scope, key, payloadHash);
    if (found.kind === 'conflict') throw new StudioApiError('CONFLICT', `idempotency key "${key}" was already used with a different payload`, 'idempotencyKey');
    if (found.kind === 'repeat') return { executionId: await found.start };
    const started = this.acknowledged(this.launchAdmitted({ ...spec, idempotency: { scope, key, payloadHash } }, options));
    this.idempotency.remember(scope, key, payloadHash, started);
    return { executionId: await started };
  }

  /**
   * Waits until a start is durable (DUR-01) before it is acknowledged. If it cannot be stored (disk full),
   * the run is cancelled and the start refused with UNAVAILABLE: nothing unsaved is ever acknowledged.
   */
  private async acknowledged(launched: Promise<string>): Promise<string> {
    const executionId = await launched;
    const acknowledge = this.options.acknowledge;
    if (!acknowledge) return executionId;
    try {
      await acknowledge(executionId);
    } catch (error) {
      this.cancel(executionId);
      const reason = error instanceof Error ? error.message : String(error);
      // A start record no store can write is the caller's input (400), not a store that is down (503).
      if (error instanceof UnwritableEntryError) throw new StudioApiError('BAD_INPUT', `the start was refused and its run cancelled: ${reason}`, 'payload');
      throw new StudioApiError('UNAVAILABLE', `the start could not be saved, so it was refused and its run cancelled: ${reason}`);
    }
    return executionId;
  }

  /** Remembers an idempotency key read back from the execution log at boot (ADM-02); its window starts again now. */
  restoreIdempotencyKey(record: IdempotencyRecord, executionId: string): void {
    this.idempotency.remember(record.scope, record.key, record.payloadHash, Promise.resolve(executionId));
  }

  /** The start record of the run being announced now (RUN_STARTED, DUR-01), or null (a sub-workflow run). */
  startRecord(executionId: string): StartRecord | null {
    const current = this.announcing;
    return current === null || current.executionId !== executionId ? null : startRecordOf(current.start);
  }

  /**
   * Takes a slot for a prepared start and starts it, or queues it (ADM-01). Synchronous: the admission
   * decision, the id and the announcement happen in one turn, so two starts racing for the last slot never
   * both get it. Restart, restart-from-node and resume go through here too.
   */
  startAdmitted(start: AdmittedStart): { executionId: string; queued: boolean } {
    let executionId = '';
    const ticket = this.options.scheduler.admit(
      {
        session: start.session,
        workflowId: start.workflowId,
        ...start.admission,
        granted: (slot) => this.track(this.buildQueued(executionId, start), slot),
        dropped: (reason) => this.queued.end(executionId, reason),
      },
      randomUUID,
    );
    executionId = ticket.executionId;
    this.announcing = { executionId, start };
    try {
      if (ticket.state === 'queued') {
        this.queued.announce(ticket, start.prepared);
        return { executionId, queued: true };
      }
      let run: WorkflowRun;
      try {
        run = start.build(executionId);
      } catch (error) {
        ticket.release();
        throw error;
      }
      run.announce();
      this.track(run, ticket);
      return { executionId, queued: false };
    } finally {
      this.announcing = null;
    }
  }

  get(executionId: string): WorkflowRun | undefined {
    return this.live.get(executionId);
  }

  /** Every live run (the plugin-level control bus reaches all runs of a workflow, CTL-08). */
  liveRuns(): Iterable<WorkflowRun> {
    return this.live.values();
  }

  /**
   * Restart, restart-from-node and retry (CTL-04): starts an already prepared graph (the archived version,
   * or a restart's replay graph) with the archived payload, through admission like any start.
   */
  async startPrepared(start: PreparedStart): Promise<{ executionId: string; queued: boolean }> {
    this.options.scheduler.refuseUnlessLeader();
    await this.options.schedulerReady;
    const options = readStartOptions(start.payload);
    const resume = start.resume;
    const spec: LaunchSpec = { session: start.session, workflowId: start.workflowId, payload: start.payload, collectResults: false, timeBudgetMs: options.timeBudgetMs, unrecorded: resume?.unrecorded };
    const prepared = withTimeBudget(start.prepared, spec.timeBudgetMs);
    const deadlineMs = await this.runDeadlineMs(start.session);
    const build = (executionId: string) => {
      resume?.beforeBuild(executionId);
      return this.createRun(executionId, spec, prepared, deadlineMs);
    };
    const origin = resume ? { resumedFrom: resume.from, scope: resume.scope, inputs: resume.inputs } : undefined;
    return this.startAdmitted({ session: start.session, workflowId: start.workflowId, prepared, admission: options, build, payload: start.payload, origin });
  }

  /** A saved version of a workflow, prepared (DUR-03 resume, CTL-04 archive entries rebuilt after a restart). */
  async preparedVersion(session: string, workflowId: string, version: string): Promise<PreparedWorkflow> {
    const cached = this.preparations.peek(version);
    if (cached) return cached;
    const stored = await this.pinnedVersion({ session, workflowId, payload: {}, collectResults: false }, version);
    return this.preparations.get(stored.version, () => this.prepare(stored, workflowId));
  }

  /** Resolves with the run's final status, or null when it is neither live nor queued. */
  wait(executionId: string): Promise<Status> | null {
    return this.live.get(executionId)?.done ?? this.queued.wait(executionId);
  }

  /** Cancels a live run, or takes a queued start out of the queue (it ends CANCELLED without running). */
  cancel(executionId: string): boolean {
    const run = this.live.get(executionId);
    if (run) return (run.cancel(), true);
    const ticket = this.queued.ticket(executionId);
    return ticket !== null && this.options.scheduler.withdraw(ticket);
  }

  /** The scheduler's ticket of a start that waits QUEUED, or null. */
  queuedTicket(executionId: string): Ticket | null {
    return this.queued.ticket(executionId);
  }

  hasLiveRuns(session: string): boolean {
    for (const run of this.live.values()) if (run.session === session) return true;
    return this.queued.hasSession(session);
  }

  get liveCount(): number {
    return this.live.size;
  }

  /** Forgets the prepared copy of a version that a save, restore, delete or session configuration replaced. */
  dropPrepared(version: string): void {
    this.preparations.drop(version);
  }

  preparationStats(): { hits: number; misses: number; size: number } {
    return this.preparations.stats();
  }

  /**
   * Shutdown (ADM-01): the scheduler admits nothing more and refuses the queued starts; running runs get
   * `yukta.execution.shutdown-timeout` to finish, then the rest are killed (they end CANCELLED).
   */
  async shutdown(): Promise<void> {
    const { scheduler, clock } = this.options;
    scheduler.close();
    const runs = [...this.live.values()];
    if (runs.length === 0) return;
    const graceMs = scheduler.limits.shutdownTimeoutMs;
    if (graceMs > 0) {
      let timer: ReturnType<Clock['setTimer']> | null = null;
      const graceOver = new Promise<void>((resolve) => (timer = clock.setTimer(resolve, graceMs)));
      await Promise.race([Promise.all(runs.map((r) => r.done)), graceOver]);
      if (timer) clock.clearTimer(timer);
    }
    const left = [...this.live.values()];
    // The grace period is over: work still inside a plugin is abandoned (KILL), not awaited.
    for (const run of left) run.stop('KILL');
    await Promise.all(left.map((r) => r.done));
  }

  /** A top-level start: prepared, checked, then admitted (the slot is taken before the id exists). */
  private async launchAdmitted(spec: LaunchSpec, options: StartOptions): Promise<string> {
    this.options.scheduler.refuseUnlessLeader();
    await this.options.schedulerReady;
    const prepared = withTimeBudget(await this.prepared(spec), spec.timeBudgetMs);
    if (spec.debug) checkDebug(prepared, spec.debug);
    const deadlineMs = await this.runDeadlineMs(spec.session);
    const build = (executionId: string) => this.createRun(executionId, spec, prepared, deadlineMs);
    const origin = spec.idempotency ? { idempotency: spec.idempotency } : undefined;
    return this.startAdmitted({ session: spec.session, workflowId: spec.workflowId, prepared, admission: options, build, payload: spec.payload, origin }).executionId;
  }

  /** A sub-workflow's run: no admission, it runs on its parent's slot (ENG-07). */
  private async launchChild(spec: LaunchSpec): Promise<WorkflowRun> {
    const prepared = withTimeBudget(await this.prepared(spec), spec.timeBudgetMs);
    const run = this.createRun(randomUUID(), spec, prepared, await this.runDeadlineMs(spec.session));
    run.announce();
    this.track(run, null);
    return run;
  }

  private createRun(executionId: string, spec: LaunchSpec, prepared: PreparedWorkflow, deadlineMs: number): WorkflowRun {
    // Sub-workflow runs (they collect results) are not archived: only a caller's run is restarted.
    const archive = spec.collectResults ? undefined : this.options.archive;
    const run: WorkflowRun = new WorkflowRun({
      executionId,
      session: spec.session,
      prepared,
      payload: spec.payload,
      clock: this.options.clock,
      random: this.random,
      emit: (event) => this.options.bus.publish(event),
      channelCapacity: this.options.channelCapacity,
      deadlineMs,
      freezeMessages: this.options.freezeMessages,
      collectResults: spec.collectResults,
      runWorkflow: (request, signal): Promise<SubWorkflowResult> => this.runChild(run, spec.timeBudgetMs, request, signal),
      edgeDropped: (nodeId) => this.options.edgeDropped(spec.workflowId, nodeId),
      recorder: archive?.begin({ executionId, session: spec.session, workflowId: spec.workflowId, prepared, payload: spec.payload, unrecorded: spec.unrecorded }) ?? null,
      control: this.options.control ?? null,
      services: this.options.services ?? null,
    });
    if (spec.debug) applyDebug(run, spec.debug);
    return run;
  }

  /** A queued start's slot came: build its run (a failure ends the start FAILURE and frees the slot). */
  private buildQueued(executionId: string, start: AdmittedStart): WorkflowRun {
    try {
      const run = start.build(executionId);
      this.queued.started(executionId, run.done);
      return run;
    } catch (error) {
      this.queued.end(executionId, { status: 'FAILURE', error: toErrorInfo(error) });
      throw error;
    }
  }

  /** Keeps a started run live until it ends, then frees its slot (children hold none). */
  private track(run: WorkflowRun, slot: Slot | null): void {
    this.live.set(run.executionId, run);
    void run.done.then(() => {
      this.live.delete(run.executionId);
      slot?.release();
    });
    run.start();
  }

  /**
   * The prepared workflow to run. A pinned version (`yukta.version`) bypasses the cache (DEF-01); the
   * current one goes through it (DEF-03). When the current version is already prepared, only the version
   * list is read, not the whole definition.
   */
  private async prepared(spec: LaunchSpec): Promise<PreparedWorkflow> {
    const pinned = spec.payload[VERSION_KEY];
    if (pinned !== undefined) return this.prepare(await this.pinnedVersion(spec, pinned), spec.workflowId);
    const head = (await this.options.definitions.versions(spec.session, spec.workflowId))[0];
    const cached = head && this.preparations.peek(head.version);
    if (cached) return cached;
    const stored = await this.current(spec);
    return this.preparations.get(stored.version, () => this.prepare(stored, spec.workflowId));
  }

  private async current(spec: LaunchSpec): Promise<StoredWorkflow> {
    const stored = await this.options.definitions.get(spec.session, spec.workflowId);
    if (!stored) throw new StudioApiError('NOT_FOUND', `workflow "${spec.workflowId}" does not exist in session "${spec.session}"`, 'workflowId');
    return stored;
  }

  private async pinnedVersion(spec: LaunchSpec, version: unknown): Promise<StoredWorkflow> {
    if (typeof version !== 'string' || !/^[0-9a-f]{64}$/.test(version)) {
      throw new StudioApiError('BAD_INPUT', `payload.${VERSION_KEY} must be a saved version (64 hex characters)`, `payload.${VERSION_KEY}`);
    }
    const stored = await this.options.definitions.getVersion(spec.session, spec.workflowId, version);
    if (!stored) throw new StudioApiError('NOT_FOUND', `workflow "${spec.workflowId}" has no saved version ${version.slice(0, 12)}`, `payload.${VERSION_KEY}`);
    return stored;
  }

  /** Checks the stored graph again (the plugin registry may have changed since it was saved) and prepares it. */
  private prepare(stored: StoredWorkflow, workflowId: string): PreparedWorkflow {
    const { definition, issues } = validateDefinition(stored.definition, this.options.registry);
    if (!definition || hasErrors(issues)) {
      throw new StudioApiError('VALIDATION_FAILED', `workflow "${workflowId}" cannot run: ${issues[0]?.message ?? 'invalid'}`, undefined, issues);
    }
    if (!definition.nodes.some((n) => this.options.registry.get(n.type)?.kind === 'trigger')) {
      throw new StudioApiError('BAD_INPUT', `workflow "${workflowId}" has no trigger, so it cannot be started`, 'workflowId');
    }
    return prepareWorkflow(definition, stored.version, this.options.registry, this.options.placement);
  }

  private async runDeadlineMs(session: string): Promise<number> {
    const stored = await this.options.definitions.getSession(session);
    const seconds = stored?.settings?.defaultExecutionTimeoutSeconds;
    return seconds === undefined ? DEFAULT_RUN_TIMEOUT_MS : seconds * 1000;
  }

  /**
   * A sub-workflow (ENG-07): a normal run with its own id, one level deeper, on its parent's slot (it
   * never passes admission, so a parent waiting on children cannot starve them). Cancelling the node
   * cancels the child; a child that does not end SUCCESS fails the node.
   */
  private async runChild(parent: WorkflowRun, parentBudgetMs: number | undefined, request: { workflowId: string; session?: string; payload: Record<string, unknown> }, signal: AbortSignal): Promise<SubWorkflowResult> {
    const depth = Number(parent.depth) + 1;
    if (depth > MAX_DEPTH) throw new BadInputError(`sub-workflow "${request.workflowId}" would nest ${depth} levels deep (at most ${MAX_DEPTH})`);
    const payload = { ...request.payload, [DEPTH_KEY]: depth, [PARENT_KEY]: parent.executionId };
    const timeBudgetMs = childBudget(parentBudgetMs, readStartOptions(payload).timeBudgetMs);
    const child = await this.launchChild({ session: request.session ?? parent.session, workflowId: request.workflowId, payload, collectResults: true, timeBudgetMs });
    const onAbort = () => child.cancel();
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const status = await child.done;
      if (status !== 'SUCCESS') throw new Error(`sub-workflow "${request.workflowId}" (${child.executionId}) ended ${status}`);
      return { executionId: child.executionId, results: child.results };
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }
}
