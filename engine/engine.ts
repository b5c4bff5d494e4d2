import { randomUUID } from 'node:crypto';
import { StudioApiError } from '../shared/api/errors';
import type { RunDetail, RunSummary } from '../shared/api/runs.schema';
import type { SaveResult, StoredWorkflow, WorkflowSummary } from '../shared/api/workflows.schema';
import type { Status } from '../shared/status/status';
import type { NodeTypeInfo } from '../shared/workflow/node-type';
import { hasErrors, type ValidationIssue } from '../shared/workflow/validation-issue';
import { contentHash } from './definitions/content-hash';
import { validateDefinition } from './definitions/validate-definition';
import { builtinPlugins } from './plugins/builtin';
import { IdempotencyCache } from './scheduler/idempotency-cache';
import type { Plugin } from './plugins/contract';
import { PluginRegistry } from './plugins/registry';
import { SystemClock, type Clock } from './runtime/clock';
import { prepareWorkflow } from './runtime/prepared-workflow';
import { WorkflowRun } from './runtime/workflow-run';
import type { DefinitionStore } from './store/definition-store';
import { MemoryDefinitionStore } from './store/memory/memory-definition-store';
import { EventBus, type EventListener } from './tracker/event-bus';
import { RunTracker, type RunQuery } from './tracker/run-tracker';

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
  /** Receives errors thrown by event listeners. */
  onListenerError?: (error: unknown) => void;
}

export interface StartRequest {
  session: string;
  workflowId: string;
  payload: Record<string, unknown>;
  /** A repeat with the same key, session and workflow returns the first execution id (ADM-02). */
  idempotencyKey?: string | undefined;
}

/**
 * The workflow engine: definitions, validation, runs and the event feed, with no UI or transport.
 * The host builds one per data folder and exposes it through the StudioApi.
 */
export class Engine {
  readonly registry: PluginRegistry;
  readonly clock: Clock;
  private readonly definitions: DefinitionStore;
  private readonly bus: EventBus;
  private readonly tracker: RunTracker;
  private readonly live = new Map<string, WorkflowRun>();
  private readonly channelCapacity: number;
  private readonly idempotency: IdempotencyCache;

  constructor(options: EngineOptions = {}) {
    this.registry = new PluginRegistry(options.plugins ?? builtinPlugins());
    this.clock = options.clock ?? new SystemClock();
    this.definitions = options.definitions ?? new MemoryDefinitionStore();
    this.channelCapacity = options.channelCapacity ?? 64;
    this.bus = new EventBus(options.onListenerError);
    this.tracker = new RunTracker({ maxRuns: options.maxRuns ?? 1000, maxResultsPerRun: options.maxResultsPerRun ?? 1000 });
    this.bus.subscribe(this.tracker.apply);
    this.idempotency = new IdempotencyCache(this.clock, options.idempotencyTtlMs ?? 10 * 60_000, options.idempotencyMaxKeys ?? 100_000);
  }

  nodeTypes(): NodeTypeInfo[] {
    return this.registry.list();
  }

  validate(raw: unknown): { valid: boolean; issues: ValidationIssue[] } {
    const { issues } = validateDefinition(raw, this.registry);
    return { valid: !hasErrors(issues), issues };
  }

  /** Validates and stores a definition; an invalid one is refused and nothing is written. */
  async saveWorkflow(session: string, raw: unknown, note?: string): Promise<SaveResult> {
    const { definition, issues } = validateDefinition(raw, this.registry);
    if (!definition || hasErrors(issues)) {
      const first = issues.find((i) => i.severity === 'error');
      throw new StudioApiError('VALIDATION_FAILED', `workflow refused: ${first?.message ?? 'invalid definition'}`, first?.path, issues);
    }
    const version = contentHash(definition);
    const options = note === undefined ? { version, savedAt: this.clock.now() } : { version, savedAt: this.clock.now(), note };
    const { changed } = await this.definitions.save(session, definition, options);
    return { workflowId: definition.workflowId, version, changed };
  }

  async getWorkflow(session: string, workflowId: string): Promise<StoredWorkflow> {
    const stored = await this.definitions.get(session, workflowId);
    if (!stored) throw new StudioApiError('NOT_FOUND', `workflow "${workflowId}" does not exist in session "${session}"`, 'workflowId');
    return stored;
  }

  async listWorkflows(session?: string): Promise<WorkflowSummary[]> {
    const all = await this.definitions.list(session);
    return all
      .map((w) => ({ session: w.session, workflowId: w.definition.workflowId, description: w.definition.description, version: w.version, savedAt: w.savedAt, nodeCount: w.definition.nodes.length }))
      .sort((a, b) => a.session.localeCompare(b.session) || a.workflowId.localeCompare(b.workflowId));
  }

  /**
   * Starts a run of the stored workflow; returns once the run is announced, not when it ends.
   * With an idempotency key, a repeat (even a concurrent one) gets the first run's id; the same key
   * with a different payload is a CONFLICT.
   */
  async startRun(request: StartRequest): Promise<{ executionId: string }> {
    const key = request.idempotencyKey;
    if (key === undefined) return { executionId: await this.startNew(request) };
    const scope = `${request.session}\u0000${request.workflowId}`;
    const payloadHash = contentHash(request.payload);
    const found = this.idempotency.lookup(scope, key, payloadHash);
    if (found.kind === 'conflict') throw new StudioApiError('CONFLICT', `idempotency key "${key}" was already used with a different payload`, 'idempotencyKey');
    if (found.kind === 'repeat') return { executionId: await found.start };
    const start = this.startNew(request);
    this.idempotency.remember(scope, key, payloadHash, start);
    return { executionId: await start };
  }

  private async startNew(request: StartRequest): Promise<string> {
    const stored = await this.getWorkflow(request.session, request.workflowId);
    // The stored graph was valid when saved, but the plugin registry may have changed since.
    const { definition, issues } = validateDefinition(stored.definition, this.registry);
    if (!definition || hasErrors(issues)) {
      throw new StudioApiError('VALIDATION_FAILED', `workflow "${request.workflowId}" cannot run: ${issues[0]?.message ?? 'invalid'}`, undefined, issues);
    }
    if (!definition.nodes.some((n) => this.registry.get(n.type)?.kind === 'trigger')) {
      throw new StudioApiError('BAD_INPUT', `workflow "${request.workflowId}" has no trigger, so it cannot be started`, 'workflowId');
    }
    const prepared = prepareWorkflow(definition, stored.version, this.registry);
    const run = new WorkflowRun({
      executionId: randomUUID(),
      session: request.session,
      prepared,
      payload: request.payload,
      clock: this.clock,
      emit: (event) => this.bus.publish(event),
      channelCapacity: this.channelCapacity,
    });
    this.live.set(run.executionId, run);
    void run.done.then(() => this.live.delete(run.executionId));
    run.announce();
    run.start();
    return run.executionId;
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
    const live = this.live.get(executionId);
    if (live) return live.done;
    return this.getRun(executionId).status;
  }

  cancelRun(executionId: string): void {
    const live = this.live.get(executionId);
    if (!live) throw new StudioApiError('CONFLICT', `run "${executionId}" is not running`, 'executionId');
    live.cancel();
  }

  /** Every engine event, in order, as it happens. */
  subscribe(listener: EventListener): () => void {
    return this.bus.subscribe(listener);
  }

  get liveRunCount(): number {
    return this.live.size;
  }

  /** Cancels live runs and waits for them to end. */
  async shutdown(): Promise<void> {
    const runs = [...this.live.values()];
    for (const run of runs) run.cancel();
    await Promise.all(runs.map((r) => r.done));
  }
}
