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
import { IdempotencyCache } from '../scheduler/idempotency-cache';
import type { DefinitionStore } from '../store/definition-store';
import type { EventBus } from '../tracker/event-bus';
import type { Clock } from './clock';
import { BadInputError } from './errors';
import { prepareWorkflow, type PreparedWorkflow } from './prepared-workflow';
import { seededRandom, type Random } from './random';
import { WorkflowRun } from './workflow-run';

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

export interface RunDebugSettings {
  /** Nodes paused from the start. */
  paused?: string[];
  /** Breakpoints (CTL-02): hold a node before the first message whose value at `path` equals `equals`. */
  breakpoints?: Array<{ nodeId: string; path: string; equals: string }>;
  /** Processors skipped from the start (ENG-06: they can be unskipped later). */
  skipped?: string[];
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
}

interface LaunchSpec {
  session: string;
  workflowId: string;
  payload: Record<string, unknown>;
  collectResults: boolean;
  debug?: RunDebugSettings | undefined;
}

/**
 * Starts runs: resolves the definition (or the saved version named by `yukta.version`), prepares it
 * through the content-keyed cache (DEF-03), honours idempotency keys (ADM-02), applies the session's run
 * deadline, and runs sub-workflows as children of their parent (ENG-07). Keeps the live runs.
 */
export class RunLauncher {
  private readonly live = new Map<string, WorkflowRun>();
  private readonly preparations = new PreparationCache();
  private readonly idempotency: IdempotencyCache;
  private readonly random: Random;

  constructor(private readonly options: RunLauncherOptions) {
    this.idempotency = new IdempotencyCache(options.clock, options.idempotencyTtlMs, options.idempotencyMaxKeys);
    this.random = seededRandom(options.randomSeed ?? Math.floor(Math.random() * 2 ** 32));
  }

  /**
   * Starts a run; returns once it is announced, not when it ends. With an idempotency key, a repeat (even
   * a concurrent one) gets the first run's id; the same key with a different payload is a CONFLICT.
   */
  async start(request: StartRequest): Promise<{ executionId: string }> {
    const spec: LaunchSpec = { session: request.session, workflowId: request.workflowId, payload: request.payload, collectResults: false, debug: request.debug };
    const key = request.idempotencyKey;
    if (key === undefined) return { executionId: (await this.launch(spec)).executionId };
    const scope = `${request.session}\u0000${request.workflowId}`;
    const payloadHash = contentHash(request.payload);
    const found = this.idempotency.lookup(scope, key, payloadHash);
    if (found.kind === 'conflict') throw new StudioApiError('CONFLICT', `idempotency key "${key}" was already used with a different payload`, 'idempotencyKey');
    if (found.kind === 'repeat') return { executionId: await found.start };
    const started = this.launch(spec).then((run) => run.executionId);
    this.idempotency.remember(scope, key, payloadHash, started);
    return { executionId: await started };
  }

  get(executionId: string): WorkflowRun | undefined {
    return this.live.get(executionId);
  }

  /** Resolves with the run's final status, or null when it is not live. */
  wait(executionId: string): Promise<Status> | null {
    return this.live.get(executionId)?.done ?? null;
  }

  hasLiveRuns(session: string): boolean {
    for (const run of this.live.values()) if (run.session === session) return true;
    return false;
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

  async shutdown(): Promise<void> {
    const runs = [...this.live.values()];
    for (const run of runs) run.cancel();
    await Promise.all(runs.map((r) => r.done));
  }

  private async launch(spec: LaunchSpec): Promise<WorkflowRun> {
    const prepared = await this.prepared(spec);
    const executionId = randomUUID();
    const run: WorkflowRun = new WorkflowRun({
      executionId,
      session: spec.session,
      prepared,
      payload: spec.payload,
      clock: this.options.clock,
      random: this.random,
      emit: (event) => this.options.bus.publish(event),
      channelCapacity: this.options.channelCapacity,
      deadlineMs: await this.runDeadlineMs(spec.session),
      freezeMessages: this.options.freezeMessages,
      collectResults: spec.collectResults,
      runWorkflow: (request, signal): Promise<SubWorkflowResult> => this.runChild(run, request, signal),
      edgeDropped: (nodeId) => this.options.edgeDropped(spec.workflowId, nodeId),
    });
    if (spec.debug) applyDebug(run, spec.debug);
    this.live.set(executionId, run);
    void run.done.then(() => this.live.delete(executionId));
    run.announce();
    run.start();
    return run;
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
    return prepareWorkflow(definition, stored.version, this.options.registry);
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
  private async runChild(parent: WorkflowRun, request: { workflowId: string; session?: string; payload: Record<string, unknown> }, signal: AbortSignal): Promise<SubWorkflowResult> {
    const depth = Number(parent.depth) + 1;
    if (depth > MAX_DEPTH) throw new BadInputError(`sub-workflow "${request.workflowId}" would nest ${depth} levels deep (at most ${MAX_DEPTH})`);
    const payload = { ...request.payload, [DEPTH_KEY]: depth, [PARENT_KEY]: parent.executionId };
    const child = await this.launch({ session: request.session ?? parent.session, workflowId: request.workflowId, payload, collectResults: true });
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

/** Sets valves before the run starts; unknown nodes and skipping a non-processor are bad input. */
function applyDebug(run: WorkflowRun, debug: RunDebugSettings): void {
  const stage = (nodeId: string, field: string) => {
    if (!run.hasNode(nodeId)) throw new StudioApiError('BAD_INPUT', `debug.${field}: node "${nodeId}" is not in workflow "${run.workflowId}"`, `debug.${field}`);
    return run.stage(nodeId);
  };
  for (const nodeId of debug.skipped ?? []) {
    const s = stage(nodeId, 'skipped');
    if (s.node.kind !== 'processor') throw new StudioApiError('BAD_INPUT', `debug.skipped: only processors can be skipped; "${nodeId}" is a ${s.node.kind}`, 'debug.skipped');
    s.valve.setSkipped(true);
  }
  for (const b of debug.breakpoints ?? []) stage(b.nodeId, 'breakpoints').valve.setBreakpoint({ path: b.path, equals: b.equals });
  for (const nodeId of debug.paused ?? []) stage(nodeId, 'paused').valve.pause();
}
