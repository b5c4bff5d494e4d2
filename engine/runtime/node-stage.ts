import type { ErrorInfo, NodeCounts, UnnumberedEvent } from '../../shared/events/events';
import { isTerminal, type Status } from '../../shared/status/status';
import type { NodeControl, PluginResult, SubWorkflowResult, SubWorkflowRunner } from '../plugins/contract';
import type { PluginServices } from '../plugins/services';
import { renderTemplate } from '../plugins/expressions/template';
import { Channel, EMPTY, END } from './channel';
import { BadInputError, CancelledError, type NodeTimeoutError, RunAbortedError, toErrorInfo } from './errors';
import { MessageAttempts, type AttemptStage } from './message-attempts';
import type { Message, OutputMessage } from './message';
import type { NodeTimers } from './node-timers';
import { NodeReport } from './node-report';
import type { PreparedNode } from './prepared-workflow';
import type { Random } from './random';
import { NO_CONTROL, type ControlledNode, type NodeRecorder, type RunControl, type RunRecorder } from './run-hooks';
import { StageClocks } from './stage-clocks';
import { StageContext, type ContextHost } from './stage-context';
import { StageEnd, type NodeEnd, type NodeHalt } from './stage-end';
import { StageOutput, type OutputStage } from './stage-output';
import { SKIP, Valve, type ValveState } from './valve';

/** What a stage needs from its run. */
export interface StageRun {
  readonly executionId: string;
  readonly session: string;
  readonly workflowId: string;
  readonly signal: AbortSignal;
  readonly cancelled: boolean;
  readonly random: Random;
  /** Deep-freeze every message so a plugin that mutates its input fails loudly (development and tests). */
  readonly freezeMessages: boolean;
  readonly runWorkflow: SubWorkflowRunner;
  timers(): NodeTimers;
  emit(event: UnnumberedEvent): void;
  /** `emit` as a function of its own (one per run, shared by its stages' reports). */
  readonly emitter: (event: UnnumberedEvent) => void;
  stage(nodeId: string): NodeStage;
  /** A terminal received a message (OBS-03); the run publishes it and feeds a sub-workflow's collector. */
  result(nodeId: string, message: Message): void;
  /** The stage ended (once): the run ends after its last stage. */
  stageEnded(stage: NodeStage, end: NodeEnd): void;
  /** A plugin threw RunAbortedError: the whole run ends. */
  abortRun(nodeId: string, error: ErrorInfo): void;
  edgeDropped(nodeId: string): void;
  /** Records outputs and end markers for restart (CTL-04); null when the run records nothing. */
  readonly recorder: RunRecorder | null;
  /** Serves `ctx.control` (CTL-05, CTL-08); null when the run has no control plane. */
  readonly control: RunControl | null;
  /** `ctx.services` (SEC-02, SEC-03, EXT-03). */
  readonly services: PluginServices;
}

/**
 * One node of a running workflow (ENG-02), in the card's order: merged input (one bounded channel all
 * parents write to, or a dropping edge buffer) → valve (pause, step, breakpoint, skip) → plugin call
 * (attempts, timeouts, retry, onError: `MessageAttempts`) → clocks and status (`StageClocks`, `StageEnd`,
 * `NodeReport`) → broadcast to the children, awaiting a full child (back-pressure: `StageOutput`). When
 * nothing is asynchronous the hot path takes no promise per message.
 */
export class NodeStage implements ContextHost, OutputStage, AttemptStage, ControlledNode {
  readonly input: Channel<Message> | null;
  readonly timers: NodeTimers;
  readonly clocks: StageClocks;
  readonly ctx: StageContext;
  readonly recorder: NodeRecorder | null;
  private readonly report: NodeReport;
  private readonly ending: StageEnd;
  private readonly output: StageOutput;
  /** Made at the first message under a failure policy (most nodes have none). */
  private attempts: MessageAttempts | null = null;
  private valveRef: Valve | null = null;
  /** The id of the message held at the valve as last reported. */
  private heldId: string | null = null;
  private pluginState: Record<string, unknown> | null = null;
  /** Made on first use of the node's signal: most plugins never look at it, and runs start faster without. */
  private abortController: AbortController | null = null;
  private abortReason: unknown = undefined;
  private controlRef: NodeControl | null = null;

  constructor(
    readonly node: PreparedNode,
    private readonly run: StageRun,
    channelCapacity: number,
  ) {
    const timers = (this.timers = run.timers());
    this.input = inputChannel(node, channelCapacity, () => this.dropped());
    this.report = new NodeReport(run.executionId, node.nodeId, timers, run.emitter, this.input);
    this.ending = new StageEnd(node, run);
    this.clocks = new StageClocks(timers, node.nodeId, node.idleTimeoutMs, (error) => this.haltWith({ status: 'TIMED_OUT', error }));
    this.ctx = new StageContext({ executionId: run.executionId, session: run.session, workflowId: run.workflowId, nodeId: node.nodeId, services: run.services, timers }, this);
    this.recorder = run.recorder === null ? null : run.recorder.node(node.nodeId);
    this.output = new StageOutput(node, run.freezeMessages, this.recorder, this.report.counts, this);
  }

  /** The valve in front of the plugin (ENG-02), made on first use: most runs never touch one. */
  get valve(): Valve {
    return (this.valveRef ??= new Valve((state) => this.valveChanged(state)));
  }

  /** Freezes or thaws the clocks, and reports a message newly held at the valve or let go (the debugger's cue). */
  private valveChanged(state: ValveState): void {
    if (state.paused || state.held) this.clocks.freeze();
    else this.clocks.thaw();
    const held = state.held?.id ?? null;
    if (held === this.heldId) return;
    this.heldId = held;
    this.report.held(held);
  }

  private valveEngaged(): boolean {
    return this.valveRef !== null && this.valveRef.engaged;
  }

  // --- what the plugin context, the signals and the control bus read ----------------------------

  get executionId(): string {
    return this.run.executionId;
  }

  get session(): string {
    return this.run.session;
  }

  get workflowId(): string {
    return this.run.workflowId;
  }

  get nodeId(): string {
    return this.node.nodeId;
  }

  get state(): Record<string, unknown> {
    return (this.pluginState ??= {});
  }

  /** `ctx.control`, made on first use (CTL-05, CTL-08). */
  get control(): NodeControl {
    return (this.controlRef ??= this.run.control === null ? NO_CONTROL : this.run.control.forNode(this));
  }

  emit(event: UnnumberedEvent): void {
    this.run.emit(event);
  }

  runWorkflow(request: Parameters<SubWorkflowRunner>[0], signal: AbortSignal): Promise<SubWorkflowResult> {
    return this.run.runWorkflow(request, signal);
  }

  activity(): void {
    this.clocks.activity();
  }

  /** Fires when the run, or this node, stops or times out (and once the node has ended). */
  get signal(): AbortSignal {
    if (this.abortController === null) {
      const controller = (this.abortController = new AbortController());
      if (this.abortReason !== undefined) controller.abort(this.abortReason);
      else if (this.run.signal.aborted) controller.abort(this.run.signal.reason);
      else this.run.signal.addEventListener('abort', () => controller.abort(this.run.signal.reason), { once: true });
    }
    return this.abortController.signal;
  }

  private abortWith(reason: unknown): void {
    if (this.abortReason !== undefined) return;
    this.abortReason = reason;
    this.abortController?.abort(reason);
  }

  get currentStatus(): Status {
    return this.report.status;
  }

  /** The node's live message counts (the tracker's copy lags by up to one progress interval). */
  get counts(): Readonly<Required<NodeCounts>> {
    return this.report.counts;
  }

  get isSink(): boolean {
    return this.node.outgoing.size === 0;
  }

  get random(): Random {
    return this.run.random;
  }

  // --- the node's life ----------------------------------------------------------------------------

  /** Runs the node to its end, then tells the run (`stageEnded`); returns at once. `start` is the run's start message, used by triggers. */
  execute(start: Message): void {
    const work = this.input === null ? this.runTrigger(start) : this.consume();
    work.then(
      () => this.ended(this.ending.end(false)),
      (error: unknown) => {
        const end = this.ending.end(true, error);
        if (error instanceof RunAbortedError) this.run.abortRun(this.node.nodeId, toErrorInfo(error));
        this.ended(end);
      },
    );
  }

  private ended(end: NodeEnd): void {
    this.finish(end);
    this.run.stageEnded(this, end);
  }

  /** A parent ended; under ALL_SUCCESS a failed parent stops this node's input at once (ENG-03). */
  parentEnded(status: Status): void {
    if (this.ending.parentEnded(status)) this.input?.cancel();
  }

  /**
   * Ends the node from outside (CTL-03): it takes no new message and its AbortSignal fires. With
   * `abandon` (KILL) the work in its plugin is abandoned at once; otherwise that one call may finish.
   */
  stop(status: 'CANCELLED' | 'STOPPED' = 'CANCELLED', abandon = true): void {
    this.haltWith({ status, error: new CancelledError(`node "${this.node.nodeId}" ${status === 'STOPPED' ? 'stopped' : 'cancelled'}`) }, abandon);
  }

  /** The run's deadline passed. */
  timeOut(error: NodeTimeoutError): void {
    this.haltWith({ status: 'TIMED_OUT', error });
  }

  stopped(): boolean {
    return this.ending.stopped;
  }

  private haltWith(halt: NodeHalt, abandon = true): void {
    if (this.ending.halted || isTerminal(this.report.status)) return;
    this.ending.haltWith(halt);
    this.abortWith(halt.error);
    this.input?.cancel();
    this.valveRef?.resume();
    if (abandon) this.clocks.failCurrentWait(halt.error);
  }

  private finish({ status, error }: NodeEnd): void {
    this.timers.cancelAll();
    this.input?.cancel();
    // Work a plugin left running is told to stop; the reason is only built if anyone listens.
    if (this.abortController !== null && !this.abortController.signal.aborted) this.abortWith(new CancelledError(`node "${this.node.nodeId}" ended ${status}`));
    this.report.set(status, error);
    this.recorder?.end(status);
    for (const children of this.node.outgoing.values()) {
      for (const childId of children) {
        const child = this.run.stage(childId);
        child.parentEnded(status);
        child.input!.producerDone();
      }
    }
  }

  // --- the loop ---------------------------------------------------------------------------------

  private async runTrigger(start: Message): Promise<void> {
    this.firstActivity(start);
    this.report.counts.received++;
    const message = this.valveEngaged() ? await this.valve.admit(start) : start;
    if (this.stopped() || message === SKIP) return;
    const pending = this.handle(message);
    if (pending !== undefined) await pending;
  }

  private async consume(): Promise<void> {
    const input = this.input!;
    for (;;) {
      let item = input.tryTake();
      if (item === EMPTY) item = await input.take();
      if (item === END) break;
      if (this.report.counts.received === 0) this.firstActivity(item);
      this.report.counts.received++;
      let message: Message | typeof SKIP = item;
      if (this.valveEngaged()) {
        message = await this.valve.admit(item);
        if (this.stopped()) break;
      }
      const pending = message === SKIP ? this.send({ payload: item.payload }, item) : this.handle(message);
      if (pending !== undefined) await pending;
      if (this.stopped()) break;
      if ((this.report.counts.received & 255) === 0) this.report.progress();
    }
    if (!this.stopped() && !this.ending.failedUpstream && this.node.plugin.finish) await this.runFinish();
  }

  /** Handles one admitted message; returns a promise only when something had to wait. */
  private handle(message: Message): Promise<void> | undefined {
    if (this.node.policy.perMessageAttempts) return (this.attempts ??= new MessageAttempts(this.node, this)).run(message);
    const result = this.node.plugin.process(message, this.node.config, this.ctx);
    if (isThenable(result)) return this.finishAsync(result, message);
    if (this.node.kind === 'terminal') this.run.result(this.node.nodeId, message);
    return this.output.emitAll(result, message);
  }

  private async finishAsync(result: Promise<PluginResult>, message: Message): Promise<void> {
    const outputs = await this.clocks.guard(result);
    if (this.node.kind === 'terminal') this.run.result(this.node.nodeId, message);
    const pending = this.output.emitAll(outputs, message);
    if (pending !== undefined) await pending;
  }

  private async runFinish(): Promise<void> {
    const finish = this.node.plugin.finish!;
    const outputs = await this.clocks.guard(Promise.resolve().then(() => finish(this.node.config, this.ctx)));
    const pending = this.output.emitAll(outputs, undefined);
    if (pending !== undefined) await pending;
  }

  private firstActivity(first: Message): void {
    this.report.set('RUNNING');
    if (this.node.idleTimeoutTemplate !== null) this.clocks.retime(retimed(this.node.nodeId, this.node.idleTimeoutTemplate, first));
    if (this.node.policy.deadlineMs !== null) this.clocks.startDeadline(this.node.policy.deadlineMs);
  }

  // --- what the output side and the attempts reach (OutputStage, AttemptStage) -------------------

  /** Sends one output to every child on its port, in order; returns a promise only if a child was full. */
  send(out: OutputMessage, input: Message | undefined): Promise<void> | undefined {
    return this.output.send(out, input);
  }

  triggerGate(): Promise<void> | null {
    return this.node.kind === 'trigger' && this.valveEngaged() ? this.valve.waitWhilePaused() : null;
  }

  childInput(nodeId: string): Channel<Message> {
    return this.run.stage(nodeId).input!;
  }

  publishResult(message: Message): void {
    this.run.result(this.node.nodeId, message);
  }

  countFailure(): void {
    this.report.counts.failed++;
  }

  /** A failed attempt will be tried again as attempt `next` (ENG-04): counted and reported. */
  countRetry(next: number): void {
    this.report.counts.retried++;
    this.report.retrying(next);
  }

  /** A retried message's attempts ended; its node no longer reports an attempt. */
  attemptsEnded(): void {
    this.report.attemptsEnded();
  }

  private dropped(): void {
    this.report.counts.dropped++;
    this.run.edgeDropped(this.node.nodeId);
  }
}

/** The node's merged input: a bounded channel all parents write to, a dropping edge buffer, or none (a trigger). */
function inputChannel(node: PreparedNode, capacity: number, onDrop: () => void): Channel<Message> | null {
  if (node.incoming === 0) return null;
  const buffer = node.edgeBuffer;
  return buffer ? new Channel<Message>(buffer.size, node.incoming, { overflow: buffer.overflow, onDrop }) : new Channel<Message>(capacity, node.incoming);
}

function isThenable(value: unknown): value is Promise<PluginResult> {
  return value !== null && typeof value === 'object' && typeof (value as { then?: unknown }).then === 'function';
}

/** Renders a templated `timeoutSeconds` against the first message (ENG-05); anything but a positive number is bad input. */
function retimed(nodeId: string, template: string, first: Message): number {
  const seconds = renderTemplate(template, { payload: first.payload, metadata: first.metadata, context: {} });
  const value = typeof seconds === 'number' ? seconds : Number(seconds);
  if (!Number.isFinite(value) || value <= 0) throw new BadInputError(`node "${nodeId}": timeoutSeconds ${template} gave ${JSON.stringify(seconds)}, not a positive number of seconds`);
  return value * 1000;
}
