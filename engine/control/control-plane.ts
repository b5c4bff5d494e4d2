import {
  ControlCommand,
  type Approval,
  type ControlAuditPage,
  type ControlAuditQuery,
  type ControlCommandInput,
  type ControlResult,
  type ControlState,
  type NodeControlState,
  type PluginControlReply,
} from '../../shared/api/control.schema';
import { BadInputError, NotFoundError, UnavailableError } from '../engine-errors';
import type { RecordedNode, RecordedSummary } from '../../shared/api/runs.schema';
import type { SupervisorInfo, SupervisorRule } from '../../shared/api/supervisors.schema';
import type { NodeCounts, StudioEvent, UnnumberedEvent } from '../../shared/events/events';
import { isTerminal, type Status } from '../../shared/status/status';
import { joinPath } from '../../shared/workflow/validation-issue';
import type { PluginControlMessage } from '../plugins/contract';
import type { Clock } from '../runtime/clock';
import type { WorkflowRun } from '../runtime/workflow-run';
import type { CheckpointStore } from '../store/checkpoint-store';
import type { ExecutionLog } from '../store/execution-log';
import type { KeyValueStore } from '../store/key-value-store';
import type { CommandTable, ControlServices, SettingsWriter } from './command-handler';
import type { ControlAudit } from './control-audit';
import type { ControlParts } from './control-parts';
import { ControlPipeline } from './control-pipeline';
import { recordedNode, recordedSummary, type RecordedPage } from './recordings';
import type { NodeKey, PluginControlBus } from './plugin-bus/plugin-control-bus';
import { Restarter, type StartPrepared } from './restart/restarter';
import type { RunArchive } from './restart/run-archive';
import type { ControlReviewer } from './reviewers';
import type { EngineRunControl } from './signals/node-control';
import type { SignalHub } from './signals/signal-hub';
import type { RuleSupervisor } from './supervisors/rule-supervisor';
import type { StoredRules } from './supervisors/stored-rules';
import type { Supervisor } from './supervisors/supervisor';
import { SupervisorHost } from './supervisors/supervisor-host';

export { RULES_NAMESPACE } from './supervisors/stored-rules';

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
  write: () => Promise.reject(new UnavailableError('settings are kept by the host; this engine has no settings writer')),
};

/** What the control plane needs of the rest of the engine (built before it). */
export interface ControlPlaneEngine {
  readonly clock: Clock;
  publish(event: UnnumberedEvent): void;
  subscribe(listener: (event: StudioEvent) => void): () => void;
  liveRun(executionId: string): WorkflowRun | undefined;
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
  readonly rules: RuleSupervisor;
  private readonly storedRules: StoredRules;
  private readonly trail: ControlAudit;
  private readonly stepMode = new Set<string>();

  constructor(
    private readonly engine: ControlPlaneEngine,
    parts: ControlParts,
    options: ControlOptions = {},
  ) {
    const { clock } = engine;
    ({
      archive: this.archive,
      checkpoints: this.checkpoints,
      signals: this.signals,
      pluginBus: this.pluginBus,
      runControl: this.runControl,
      audit: this.trail,
      rules: this.storedRules,
    } = parts);
    this.rules = this.storedRules.supervisor;
    const restarter = new Restarter(
      this.archive,
      (r) => engine.startPrepared(r),
      (id, nodeId) => engine.nodeState(id, nodeId)?.status ?? null,
    );
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
    this.pipeline = new ControlPipeline({ audit: this.trail, clock, services, liveRun: (id) => engine.liveRun(id), handlers: options.handlers });
    this.supervisors = new SupervisorHost({
      clock,
      subscribe: (listener) => engine.subscribe(listener),
      send: (id, command, actor) => this.pipeline.send(id, command, actor),
      applyingActor: () => this.trail.applyingActor,
      maxCommandsPerSecond: options.supervisorMaxCommandsPerSecond,
      dryRun: options.supervisorDryRun,
    });
    engine.subscribe((event) => this.onEvent(event));
    this.supervisors.add(this.rules);
    for (const supervisor of options.supervisors ?? []) this.supervisors.add(supervisor);
  }

  /** Parses and applies a command for an actor (CTL-01); resolves once applied, rejects with the refusal. */
  send(executionId: string, command: ControlCommandInput | ControlCommand, actor: string): Promise<ControlResult> {
    const parsed = ControlCommand.safeParse(command);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      const path = joinPath(['command', ...issue.path]);
      return Promise.reject(new BadInputError(`${path}: ${issue.message}`, 'BAD_INPUT', path));
    }
    return this.pipeline.send(executionId, parsed.data, actor);
  }

  /** Audits an action that touches no run (deleting a workflow): an applied row under a pseudo run id. */
  async recordAction(subject: string, status: string, actor: string): Promise<void> {
    await this.trail.log.append({ runId: subject, type: 'CONTROL_APPLIED', status, actor, at: this.engine.clock.now() });
  }

  audit(query: ControlAuditQuery): Promise<ControlAuditPage> {
    return Promise.resolve(this.trail.log.query(query));
  }

  /** A run's valves and held messages, for the debugger (CTL-02). */
  state(executionId: string): ControlState {
    const run = this.engine.liveRun(executionId);
    // A run that just ended (and gave its stages back) shows as not live, like one already gone.
    if (!run || run.released) {
      if (this.engine.runStatus(executionId) === null) throw new NotFoundError(`run "${executionId}" does not exist`, 'executionId');
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
    const reviewers: SupervisorInfo[] = this.trail.reviewers.map((r, order) => ({
      id: r.id,
      kind: 'CONTROL_PLANE',
      order,
      dryRun: false,
      refused: this.trail.refusals.get(r.id) ?? 0,
    }));
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
  saveRules(session: string, rules: SupervisorRule[]): Promise<SupervisorRule[]> {
    return this.storedRules.save(session, rules);
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
