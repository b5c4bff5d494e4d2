import { ControlCommand, type Approval, type ControlAuditPage, type ControlAuditQuery, type ControlCommandInput, type ControlResult, type ControlState, type NodeControlState, type PluginControlReply } from '../../shared/api/control.schema';
import { StudioApiError } from '../../shared/api/errors';
import type { RecordedNode, RecordedSummary } from '../../shared/api/runs.schema';
import { SupervisorRules, type SupervisorInfo, type SupervisorRule } from '../../shared/api/supervisors.schema';
import type { NodeCounts, StudioEvent, UnnumberedEvent } from '../../shared/events/events';
import { isTerminal, type Status } from '../../shared/status/status';
import { joinPath } from '../../shared/workflow/validation-issue';
import type { PluginControlMessage } from '../plugins/contract';
import type { Clock } from '../runtime/clock';
import type { WorkflowRun } from '../runtime/workflow-run';
import type { SchedulerCommandGate } from '../scheduler/scheduler-commands';
import type { CheckpointStore } from '../store/checkpoint-store';
import type { ExecutionLog } from '../store/execution-log';
import type { KeyValueStore } from '../store/key-value-store';
import { DEFAULT_CHECKPOINT_CAPS, MemoryCheckpointStore } from '../store/memory/memory-checkpoint-store';
import { MemoryExecutionLog } from '../store/memory/memory-execution-log';
import type { CommandTable, ControlServices, SettingsWriter } from './command-handler';
import { ControlPipeline } from './control-pipeline';
import { recordedNode, recordedSummary, type RecordedPage } from './recordings';
import { PluginControlBus, type NodeKey } from './plugin-bus/plugin-control-bus';
import { Restarter, type StartPrepared } from './restart/restarter';
import { RunArchive } from './restart/run-archive';
import type { ControlReviewer } from './reviewers';
import { EngineRunControl } from './signals/node-control';
import { SignalHub } from './signals/signal-hub';
import { RuleSupervisor } from './supervisors/rule-supervisor';
import type { Supervisor } from './supervisors/supervisor';
import { SupervisorHost } from './supervisors/supervisor-host';

/** The key–value namespace of the rule supervisor's rules, one key per session. */
export const RULES_NAMESPACE = 'supervisor-rules';

/** Settings of the control plane (engine option `control`). */
export interface ControlOptions {
  /** Where audit rows go (memory by default). */
  log?: ExecutionLog;
  /** Reviewers, in order (CTL-06). */
  reviewers?: ControlReviewer[];
  /** Supervisors on the event feed (CTL-07); the rule supervisor always runs as `rules`. */
  supervisors?: Supervisor[];
  /** `yukta.supervisor.max-commands-per-second` (20). */
  supervisorMaxCommandsPerSecond?: number;
  /** `yukta.supervisor.dry-run` (false): supervisors' commands are recorded, not applied. */
  supervisorDryRun?: boolean;
  /** Record every node's output for restart-from-node (on). */
  recordOutputs?: boolean;
  /** `yukta.restart.retained-executions` (100): finished runs kept restartable. */
  retainedRuns?: number;
  /** `yukta.restart.max-messages-per-node` (10000). */
  maxMessagesPerNode?: number;
  /** `yukta.restart.max-bytes-per-node` (16 MiB). */
  maxBytesPerNode?: number;
  /** Where checkpoints go (memory with the caps above by default). */
  checkpoints?: CheckpointStore;
  /** Where the rule supervisor's rules are kept across restarts (DUR-04: PostgreSQL key–value state); memory only by default. */
  ruleStore?: KeyValueStore;
  /** The command handlers (tests wrap them); the built-in table by default. */
  handlers?: CommandTable;
  /** Where SetSetting commands are written (CFG-01): the host's settings file; without it they are refused. */
  settings?: SettingsWriter;
}

const NO_SETTINGS: SettingsWriter = {
  write: () => Promise.reject(new StudioApiError('UNAVAILABLE', 'settings are kept by the host; this engine has no settings writer')),
};

/** What the control plane needs of the engine; supplied lazily, so it can be built before the launcher. */
export interface ControlPlaneEngine {
  readonly clock: Clock;
  publish(event: UnnumberedEvent): void;
  subscribe(listener: (event: StudioEvent) => void): () => void;
  liveRun(executionId: string): WorkflowRun | undefined;
  liveRuns(): Iterable<WorkflowRun>;
  runStatus(executionId: string): Status | null;
  nodeState(executionId: string, nodeId: string): { status: Status; counts: NodeCounts } | null;
  withdrawQueued(executionId: string): boolean;
  startPrepared: StartPrepared;
  setLimits(limits: unknown, actor: string): Promise<unknown>;
  setPriority(executionId: string, priority: number, actor: string): Promise<{ position: number }>;
}

/**
 * The control plane (CTL-01…08): the command pipeline with its reviewers and audit, the signal hub and
 * approvals, the run archive for restarts, supervisors, and the plugin-level control bus.
 */
export class ControlPlane {
  readonly archive: RunArchive;
  /** Node outputs, end markers and signal answers (DUR-02). */
  readonly checkpoints: CheckpointStore;
  readonly signals: SignalHub;
  readonly pluginBus: PluginControlBus;
  readonly runControl: EngineRunControl;
  readonly pipeline: ControlPipeline;
  readonly supervisors: SupervisorHost;
  readonly rules = new RuleSupervisor();
  /** Settles once the stored rules are back (`ruleStore`); the engine's `ready` waits for it. */
  readonly ready: Promise<void>;
  private readonly ruleStore: KeyValueStore | null;
  private readonly log: ExecutionLog;
  private readonly reviewers: readonly ControlReviewer[];
  private readonly stepMode = new Set<string>();

  constructor(
    private readonly engine: ControlPlaneEngine,
    options: ControlOptions = {},
  ) {
    const { clock } = engine;
    this.log = options.log ?? new MemoryExecutionLog();
    this.reviewers = options.reviewers ?? [];
    const caps = { maxMessagesPerNode: options.maxMessagesPerNode ?? DEFAULT_CHECKPOINT_CAPS.maxMessagesPerNode, maxBytesPerNode: options.maxBytesPerNode ?? DEFAULT_CHECKPOINT_CAPS.maxBytesPerNode };
    const checkpoints = (this.checkpoints = options.checkpoints ?? new MemoryCheckpointStore(caps));
    this.archive = new RunArchive({ checkpoints, retainedRuns: options.retainedRuns ?? 100, recordOutputs: options.recordOutputs ?? true });
    this.signals = new SignalHub({ clock, checkpoints, emit: (e) => engine.publish(e) });
    this.pluginBus = new PluginControlBus({ liveRuns: () => engine.liveRuns() });
    this.runControl = new EngineRunControl(this.signals, this.pluginBus);
    const restarter = new Restarter(this.archive, (r) => engine.startPrepared(r), (id, nodeId) => engine.nodeState(id, nodeId)?.status ?? null);
    const services: ControlServices = {
      clock,
      runStatus: (id) => engine.runStatus(id),
      withdrawQueued: (id) => engine.withdrawQueued(id),
      deliverSignal: (run, nodeId, delivery) => this.signals.deliver(run.executionId, nodeId, delivery),
      restart: (id) => restarter.restart(id),
      restartFromNode: (id, nodeId) => restarter.restartFromNode(id, nodeId),
      retryNode: (id, nodeId) => restarter.retryNode(id, nodeId),
      setLimits: (limits, actor) => engine.setLimits(limits, actor),
      setPriority: (id, priority, actor) => engine.setPriority(id, priority, actor),
      setSetting: (key, value, actor) => (options.settings ?? NO_SETTINGS).write(key, value, actor),
      stepMode: this.stepMode,
    };
    this.pipeline = new ControlPipeline({ clock, log: this.log, reviewers: this.reviewers, services, liveRun: (id) => engine.liveRun(id), emit: (e) => engine.publish(e), handlers: options.handlers });
    this.supervisors = new SupervisorHost({
      clock,
      subscribe: (listener) => engine.subscribe(listener),
      send: (id, command, actor) => this.pipeline.send(id, command, actor),
      applyingActor: () => this.pipeline.applyingActor,
      maxCommandsPerSecond: options.supervisorMaxCommandsPerSecond,
      dryRun: options.supervisorDryRun,
    });
    engine.subscribe((event) => this.onEvent(event));
    this.ruleStore = options.ruleStore ?? null;
    this.ready = this.ruleStore ? this.loadRules(this.ruleStore) : Promise.resolve();
    this.supervisors.add(this.rules);
    for (const supervisor of options.supervisors ?? []) this.supervisors.add(supervisor);
  }

  /** Parses and applies a command for an actor (CTL-01); resolves once applied, rejects with the refusal. */
  send(executionId: string, command: ControlCommandInput | ControlCommand, actor: string): Promise<ControlResult> {
    const parsed = ControlCommand.safeParse(command);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const path = joinPath(['command', ...issue.path]);
      return Promise.reject(new StudioApiError('BAD_INPUT', `${path}: ${issue.message}`, path));
    }
    return this.pipeline.send(executionId, parsed.data, actor);
  }

  /** The scheduler's gate: its limit and priority changes pass the reviewers and the audit (CTL-06). */
  schedulerGate(): SchedulerCommandGate {
    return this.pipeline.schedulerGate();
  }

  /** Audits an action that touches no run (deleting a workflow): an applied row under a pseudo run id. */
  async recordAction(subject: string, status: string, actor: string): Promise<void> {
    await this.log.append({ runId: subject, type: 'CONTROL_APPLIED', status, actor, at: this.engine.clock.now() });
  }

  audit(query: ControlAuditQuery): Promise<ControlAuditPage> {
    return Promise.resolve(this.log.query(query));
  }

  /** A run's valves and held messages, for the debugger (CTL-02). */
  state(executionId: string): ControlState {
    const run = this.engine.liveRun(executionId);
    if (!run) {
      if (this.engine.runStatus(executionId) === null) throw new StudioApiError('NOT_FOUND', `run "${executionId}" does not exist`, 'executionId');
      return { executionId, live: false, paused: false, stepMode: false, nodes: [] };
    }
    const nodes: NodeControlState[] = [...run.prepared.nodes.values()].map((node) => {
      const v = run.stage(node.nodeId).valve.state();
      const held = v.held ? { id: v.held.id, payload: v.held.payload, metadata: { ...v.held.metadata } } : null;
      return { nodeId: node.nodeId, kind: node.kind, paused: v.paused, skipped: v.skipped, stepRemaining: v.stepRemaining, breakpoint: v.breakpoint, held };
    });
    return { executionId, live: true, paused: run.isPaused, stepMode: this.stepMode.has(executionId), nodes };
  }

  /** A node's recorded outputs and inputs of an archived run, a page at a time (STU-04). */
  recorded(executionId: string, nodeId: string, page: RecordedPage): Promise<RecordedNode> {
    return recordedNode(this.archive, executionId, nodeId, page);
  }

  /** Every node's recorded output count and digest of an archived run, to compare runs (STU-04). */
  recordedSummary(executionId: string): Promise<RecordedSummary> {
    return recordedSummary(this.archive, executionId);
  }

  /** Open approvals, oldest first (CTL-05). */
  approvals(filter: { executionId?: string | undefined; limit?: number }): Approval[] {
    return this.signals.list(filter);
  }

  /** A plugin-level control message (CTL-08): bypasses reviewers, not audited. */
  pluginControl(key: NodeKey, message: PluginControlMessage): PluginControlReply {
    return this.pluginBus.send(key, message);
  }

  /** Reviewers (CONTROL_PLANE) and supervisors, in order (CTL-07). */
  listSupervisors(): SupervisorInfo[] {
    const reviewers: SupervisorInfo[] = this.reviewers.map((r, order) => ({ id: r.id, kind: 'CONTROL_PLANE', order, dryRun: false, refused: this.pipeline.refusals.get(r.id) ?? 0 }));
    return [...reviewers, ...this.supervisors.list()];
  }

  setRules(session: string, rules: SupervisorRule[]): SupervisorRule[] {
    this.rules.setRules(session, rules);
    return this.rules.getRules(session);
  }

  getRules(session: string): SupervisorRule[] {
    return this.rules.getRules(session);
  }

  /** `setRules`, stored first when the rules have a store: refused rules change nothing, stored ones are applied. */
  async saveRules(session: string, rules: SupervisorRule[]): Promise<SupervisorRule[]> {
    RuleSupervisor.check(rules);
    if (this.ruleStore) await (rules.length ? this.ruleStore.put(RULES_NAMESPACE, session, rules) : this.ruleStore.delete(RULES_NAMESPACE, session));
    return this.setRules(session, rules);
  }

  /** The stored rules of every session; a stored value that is not a valid rule list is reported and left out. */
  private async loadRules(store: KeyValueStore): Promise<void> {
    for (const [session, value] of await store.entries(RULES_NAMESPACE)) {
      const parsed = SupervisorRules.safeParse(value);
      if (parsed.success) this.rules.setRules(session, parsed.data);
    }
  }

  /** Counters the metrics issue will export (`yukta.tracker.dropped{kind=supervisor}`). */
  metrics(): Record<string, number> {
    return { 'yukta.tracker.dropped{kind=supervisor}': this.supervisors.dropped };
  }

  close(): void {
    this.supervisors.close();
  }

  private onEvent(event: StudioEvent): void {
    if (event.type !== 'EXECUTION_STATUS' || !isTerminal(event.status)) return;
    this.stepMode.delete(event.executionId);
    this.signals.forgetRun(event.executionId);
  }
}
