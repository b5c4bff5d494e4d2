import { setMaxListeners } from 'node:events';
import type { ErrorInfo, StudioEvent, UnnumberedEvent } from '../../shared/events/events';

type RunStatusEvent = Extract<StudioEvent, { type: 'EXECUTION_STATUS' }>;
import { isFailure, isTerminal, type Status } from '../../shared/status/status';
import type { SubWorkflowRunner } from '../plugins/contract';
import type { Clock } from './clock';
import { NodeTimeoutError } from './errors';
import type { Message } from './message';
import { ConflictError } from '../engine-errors';
import type { NodeStage } from './node-stage';
import type { StageRun } from './stage-run';
import type { RunStages } from './run-stages';
import type { NodeEnd } from './stage-end';
import { deepFreeze } from './stage-output';
import { NodeTimers } from './node-timers';
import type { PreparedWorkflow } from './prepared-workflow';
import type { Random } from './random';
import type { RunControl, RunRecorder } from './run-hooks';
import { defaultPluginServices, type PluginServices } from '../plugins/services';

/** How a run is stopped (CTL-03). */
export type StopMode = 'DRAIN' | 'CANCEL' | 'KILL';

export interface RunOptions {
  executionId: string;
  session: string;
  prepared: PreparedWorkflow;
  payload: unknown;
  clock: Clock;
  random: Random;
  emit(event: UnnumberedEvent): void;
  /** The run's deadline (ENG-05); the session's default execution timeout. */
  deadlineMs: number;
  freezeMessages: boolean;
  runWorkflow: SubWorkflowRunner;
  /** Keep every terminal input for a sub-workflow's result collector (ENG-07). */
  collectResults: boolean;
  /** Counts a message dropped by an edge buffer (`yukta.edge.dropped`). */
  edgeDropped(workflowId: string, nodeId: string): void;
  /** Records node outputs and end markers for restart (CTL-04); absent: nothing is recorded. */
  recorder?: RunRecorder | null;
  /** Serves the plugins' `ctx.control` (CTL-05, CTL-08); absent: signals are unavailable. */
  control?: RunControl | null;
  /** The plugins' `ctx.services` (SEC-02, SEC-03, EXT-03); absent: defaults of this process. */
  services?: PluginServices | null;
  /** The run's stages (reused from an earlier run of the same graph, or new); bound to this run here. */
  stages: RunStages;
  /** Takes the stages back once the run ended SUCCESS and none of them was handed out. */
  recycle?: ((prepared: PreparedWorkflow, stages: RunStages) => void) | undefined;
}

/**
 * One execution of a prepared workflow: builds a stage per node, wires every channel before any
 * stage starts (no early message is lost), and ends the run once (ENG-06).
 */
export class WorkflowRun implements StageRun {
  readonly executionId: string;
  readonly session: string;
  readonly workflowId: string;
  readonly random: Random;
  readonly freezeMessages: boolean;
  readonly runWorkflow: SubWorkflowRunner;
  /** Resolves with the run's final status once every node has ended. */
  readonly done: Promise<Status>;
  /** What the terminals received, when `collectResults` is on. */
  readonly results: Array<{ nodeId: string; payload: unknown }> = [];
  readonly recorder: RunRecorder | null;
  readonly control: RunControl | null;
  readonly services: PluginServices;
  /** The graph this run executes (a restart subgraph for restart-from-node, CTL-04). */
  readonly prepared: PreparedWorkflow;
  /** The start payload. */
  readonly payload: unknown;
  /** Null once the stages went back to the pool (the run has ended; nothing can reach them through it). */
  private stageSet: RunStages | null;
  /** A stage was handed out (a command, the debugger, a test): this run's stages are never reused. */
  private exposed = false;
  /** Made when a node first asks for a signal; a run that nobody listens to never builds one. */
  private abortController: AbortController | null = null;
  private abortReason: unknown = undefined;
  private readonly runTimers: NodeTimers;
  private runStatus: Status = 'PENDING';
  private resolveDone!: (status: Status) => void;
  /** The first node that failed, named in the run's error. */
  private rootCause: { nodeId: string; error: ErrorInfo } | null = null;
  private paused = false;
  /** Stages not ended yet. */
  private running = 0;
  private draining = false;
  private stoppedFlag = false;

  constructor(private readonly options: RunOptions) {
    this.executionId = options.executionId;
    this.session = options.session;
    this.workflowId = options.prepared.definition.workflowId;
    this.random = options.random;
    this.freezeMessages = options.freezeMessages;
    this.runWorkflow = options.runWorkflow;
    this.recorder = options.recorder ?? null;
    this.control = options.control ?? null;
    this.services = options.services ?? defaultPluginServices();
    this.prepared = options.prepared;
    this.payload = options.payload;
    this.runTimers = new NodeTimers(options.clock);
    this.done = new Promise((resolve) => (this.resolveDone = resolve));
    this.stageSet = options.stages;
    options.stages.bind(this);
  }

  get signal(): AbortSignal {
    if (this.abortController === null) {
      this.abortController = new AbortController();
      setMaxListeners(0, this.abortController.signal); // one listener per node and per sub-workflow call
      if (this.stoppedFlag) this.abortController.abort(this.abortReason);
    }
    return this.abortController.signal;
  }

  /** True once the run stopped for good (cancel, failure, deadline); a plain field: stages read it per message. */
  get cancelled(): boolean {
    return this.stoppedFlag;
  }

  get status(): Status {
    return this.runStatus;
  }

  get isPaused(): boolean {
    return this.paused;
  }

  emit(event: UnnumberedEvent): void {
    this.options.emit(event);
  }

  get emitter(): (event: UnnumberedEvent) => void {
    return this.options.emit;
  }

  stage(nodeId: string): NodeStage {
    if (this.stageSet === null) throw new ConflictError(`run "${this.executionId}" has ended`, 'executionId');
    const stage = this.stageSet.byId.get(nodeId);
    if (!stage) throw new Error(`run ${this.executionId} has no node "${nodeId}"`);
    this.exposed = true;
    return stage;
  }

  hasNode(nodeId: string): boolean {
    return this.prepared.nodes.has(nodeId);
  }

  /** True once the run ended and gave its stages back: no node of it can be reached any more. */
  get released(): boolean {
    return this.stageSet === null;
  }

  private get stages(): readonly NodeStage[] {
    return this.stageSet!.list;
  }

  result(nodeId: string, message: Message): void {
    const event: UnnumberedEvent = {
      type: 'NODE_RESULT',
      executionId: this.executionId,
      at: this.options.clock.now(),
      nodeId,
      messageId: message.id,
      payload: message.payload,
    };
    if (hasKeys(message.metadata)) event.metadata = { ...message.metadata };
    this.emit(event);
    if (this.options.collectResults) this.results.push({ nodeId, payload: message.payload });
  }

  abortRun(nodeId: string, error: ErrorInfo): void {
    this.rootCause ??= { nodeId, error };
    this.endRun('FAILURE', { ...error, message: `node "${nodeId}" ended the run: ${error.message}`, nodeId });
  }

  edgeDropped(nodeId: string): void {
    this.options.edgeDropped(this.workflowId, nodeId);
  }

  /**
   * Announces the run PENDING with all of its node ids (one event, not one per node); called before
   * `start` so subscribers know the whole graph.
   */
  announce(): void {
    this.setRunStatus('PENDING', undefined, this.prepared.nodeIds);
  }

  /** Starts every stage and the run's deadline; returns at once. */
  start(): void {
    this.setRunStatus('RUNNING');
    const deadline = this.options.deadlineMs;
    this.runTimers.set(() => this.timeOut(deadline), deadline);
    const payload = this.freezeMessages ? deepFreeze(this.options.payload) : this.options.payload;
    const startMessage: Message = { id: `${this.executionId}:start`, payload, metadata: {}, headers: {} };
    // Every consumer is waiting on its input before any trigger produces (ENG-01): no early message is
    // lost, and an edge buffer sees its node ready to take, not a burst it must drop.
    const stages = this.stages;
    this.running = stages.length;
    for (const stage of stages) if (stage.input !== null) stage.execute(startMessage);
    for (const stage of stages) if (stage.input === null) stage.execute(startMessage);
  }

  /** A stage ended (it calls this once); the run ends once every stage has. */
  stageEnded(stage: NodeStage, end: NodeEnd): void {
    this.onStageEnd(stage, end.status, end.error);
    if (--this.running === 0) this.onAllEnded();
  }

  /** A caller cancels: the run ends CANCELLED and every node stops taking input (CANCEL mode). */
  cancel(): void {
    this.stop('CANCEL');
  }

  /**
   * Stops the run (CTL-03). DRAIN: the triggers stop producing, messages in flight flow to the end, the run
   * ends STOPPED. CANCEL: every node stops taking messages, the call inside each plugin may finish (its
   * AbortSignal has fired), the run ends CANCELLED. KILL: the same, but work inside plugins is abandoned
   * at once.
   */
  stop(mode: StopMode): void {
    if (isTerminal(this.runStatus)) return;
    if (mode === 'DRAIN') {
      this.draining = true;
      for (const stage of this.stages) if (stage.input === null) stage.stop('STOPPED', false);
      return;
    }
    this.endRun('CANCELLED', undefined, mode === 'KILL');
  }

  /** Stops one node (CTL-03): it ends STOPPED and its children see the end of their input. */
  stopNode(nodeId: string): void {
    this.stage(nodeId).stop('STOPPED', false);
  }

  /** Pauses every node and freezes every clock of the run, its deadline included (CTL-02, ENG-05). */
  pause(): void {
    if (this.paused || isTerminal(this.runStatus)) return;
    this.paused = true;
    this.runTimers.freeze();
    for (const stage of this.stages) stage.valve.pause();
  }

  resume(): void {
    if (!this.paused) return;
    this.paused = false;
    this.runTimers.thaw();
    for (const stage of this.stages) stage.valve.resume();
  }

  private timeOut(deadlineMs: number): void {
    const error = new NodeTimeoutError(`run passed its deadline of ${deadlineMs} ms`, 'RUN_DEADLINE');
    this.endRun('TIMED_OUT', { name: error.name, message: error.message, code: error.code });
  }

  private onStageEnd(stage: NodeStage, status: Status, error: ErrorInfo | undefined): void {
    if (error && !this.rootCause) this.rootCause = { nodeId: stage.node.nodeId, error };
    // The first sink that fails ends the run at once and cancels the other branches (ENG-06).
    if (stage.isSink && isFailure(status) && !this.cancelled) this.endRun('FAILURE', this.failureInfo(stage.node.nodeId, status));
  }

  private failureInfo(sinkId: string, status: Status): ErrorInfo {
    const cause = this.rootCause;
    if (!cause) return { name: 'NodeFailed', message: `node "${sinkId}" ended ${status}` };
    return {
      name: cause.error.name,
      message: `node "${cause.nodeId}" failed: ${cause.error.message}`,
      ...(cause.error.code ? { code: cause.error.code } : {}),
      nodeId: cause.nodeId,
    };
  }

  private onAllEnded(): void {
    this.runTimers.cancelAll();
    if (!isTerminal(this.runStatus)) {
      const sinks = this.stages.filter((s) => s.isSink);
      const failed = sinks.find((s) => isFailure(s.currentStatus));
      if (failed) this.endRun('FAILURE', this.failureInfo(failed.node.nodeId, failed.currentStatus));
      else this.endRun(this.draining ? 'STOPPED' : 'SUCCESS');
    }
    this.recorder?.ended(this.runStatus);
    this.resolveDone(this.runStatus);
    const stages = this.stageSet!;
    if (this.runStatus === 'SUCCESS' && !this.exposed && this.options.recycle && stages.reusable) {
      this.stageSet = null;
      this.options.recycle(this.prepared, stages);
    }
  }

  private endRun(status: Status, error?: ErrorInfo, abandon = true): void {
    if (isTerminal(this.runStatus)) return; // a second end is ignored
    this.setRunStatus(status, error);
    if (status !== 'SUCCESS' && status !== 'STOPPED') {
      this.stoppedFlag = true;
      this.abortReason = error ?? status;
      this.abortController?.abort(this.abortReason);
      for (const stage of this.stages) stage.stop('CANCELLED', abandon);
    }
  }

  private setRunStatus(status: Status, error?: ErrorInfo, nodeIds?: readonly string[]): void {
    this.runStatus = status;
    const { prepared, clock } = this.options;
    const at = clock.now();
    const { executionId, session, workflowId } = this;
    const definitionVersion = prepared.version;
    let event: RunStatusEvent | UnnumberedEvent;
    // The common events are made whole, `seq` too (0 until the bus numbers it; last, where the bus would add
    // it): no property is added after, so no second allocation for the added properties.
    // The prepared workflow's own node-id array is shared by its runs: subscribers read it, never change it.
    if (!error)
      event = nodeIds
        ? { type: 'EXECUTION_STATUS', executionId, at, session, workflowId, definitionVersion, status, nodeIds: nodeIds as string[], seq: 0 }
        : { type: 'EXECUTION_STATUS', executionId, at, session, workflowId, definitionVersion, status, seq: 0 };
    else {
      event = { type: 'EXECUTION_STATUS', executionId, at, session, workflowId, definitionVersion, status, error };
      if (nodeIds) event.nodeIds = nodeIds as string[];
    }
    this.emit(event);
  }
}

function hasKeys(record: Readonly<Record<string, string>>): boolean {
  for (const _ in record) return true;
  return false;
}
