import type { NodeCounts, UnnumberedEvent } from '../../shared/events/events';
import { isTerminal, type Status } from '../../shared/status/status';
import type { NodeControl, PluginResult, SubWorkflowResult, SubWorkflowRunner } from '../plugins/contract';
import { Channel, EMPTY, END } from './channel';
import type { Clock } from './clock';
import { CancelledError, RunAbortedError, toErrorInfo, type FailedMessage, type NodeTimeoutError } from './errors';
import { MessageAttempts, type AttemptStage } from './message-attempts';
import type { Message, OutputMessage } from './message';
import { NodeTimers } from './node-timers';
import { NodeReport } from './node-report';
import type { PreparedNode } from './prepared-workflow';
import type { Random } from './random';
import { NO_CONTROL, type ControlledNode, type NodeRecorder } from './run-hooks';
import { StageClocks } from './stage-clocks';
import { StageContext, type ContextHost } from './stage-context';
import { StageEnd, type NodeEnd, type NodeHalt } from './stage-end';
import { StageOutput, type OutputStage } from './stage-output';
import { retimed } from './stage-retime';
import { StageSignal } from './stage-signal';
import { StageValve } from './stage-valve';
import { SKIP, type Valve } from './valve';
import type { StageRun } from './stage-run';

/**
 * One node of a running workflow (ENG-02), in the card's order: merged input (one bounded channel all
 * parents write to, or a dropping edge buffer) → valve (pause, step, breakpoint, skip) → plugin call
 * (attempts, timeouts, retry, onError: `MessageAttempts`) → clocks and status (`StageClocks`, `StageEnd`,
 * `NodeReport`) → broadcast to the children, awaiting a full child (back-pressure: `StageOutput`). The
 * loop runs synchronously until it must wait (an empty input, a valve, plugin work, a full child) and is
 * resumed by what it waited for: no promise per message. A stage serves its workflow's runs one after
 * another (`RunStages`): `bind` readies it for the next.
 */
export class NodeStage implements ContextHost, OutputStage, AttemptStage, ControlledNode {
  readonly input: Channel<Message> | null;
  readonly timers: NodeTimers;
  readonly clocks: StageClocks;
  ctx!: StageContext;
  recorder: NodeRecorder | null = null;
  private run!: StageRun;
  private readonly report: NodeReport;
  private readonly ending: StageEnd;
  private output!: StageOutput;
  private children: readonly NodeStage[] = [];
  /** Made at the first message under a failure policy (most nodes have none). */
  private attempts: MessageAttempts | null = null;
  private readonly valves: StageValve;
  private readonly abort = new StageSignal();
  private pluginState: Record<string, unknown> | null = null;
  private controlRef: NodeControl | null = null;
  private over = false;

  constructor(
    readonly node: PreparedNode,
    channelCapacity: number,
    clock: Clock,
  ) {
    const timers = (this.timers = new NodeTimers(clock));
    this.input = inputChannel(node, channelCapacity, () => this.dropped());
    this.report = new NodeReport('', node.nodeId, timers, () => undefined, this.input);
    this.ending = new StageEnd(node, { cancelled: false });
    this.clocks = new StageClocks(timers, node.nodeId, node.idleTimeoutMs, (error) => this.haltWith({ status: 'TIMED_OUT', error }));
    this.valves = new StageValve(this.clocks, this.report);
  }

  /** Joins the stage to its children: their inputs per output port, and whom to tell of its end. */
  wire(ports: readonly string[], targets: ReadonlyArray<ReadonlyArray<NodeStage>>): void {
    // One entry per edge, not per child: a child reached by two ports counts both as producers of its input.
    this.children = targets.flat();
    this.output = new StageOutput(
      this.node,
      ports,
      targets.map((stages) => stages.map((s) => s.input!)),
      this.report.counts,
      this,
    );
  }

  /** Readies the stage for a run: nothing has happened to the node yet. */
  bind(run: StageRun): void {
    this.run = run;
    this.report.reset(run.executionId, run.emitter);
    this.ending.reset(run);
    this.timers.reset();
    this.clocks.reset(this.node.idleTimeoutMs);
    this.input?.reset();
    this.recorder = run.recorder === null ? null : run.recorder.node(this.node.nodeId);
    this.output.reset(this.recorder, run.freezeMessages, run.services.limits);
    this.ctx = new StageContext(run.executionId, run.session, run.workflowId, this.node.nodeId, run.services, this.timers, this);
    this.attempts = null;
    this.valves.reset();
    this.abort.reset(run);
    this.pluginState = null;
    this.controlRef = null;
    this.over = false;
  }

  /**
   * True once the node ended and nothing of its run can reach it any more: no valve, signal, control,
   * state or attempts were made (so no plugin, command or timer holds a way in), no work is awaited.
   */
  get reusable(): boolean {
    return (
      this.over &&
      !this.valves.made &&
      !this.abort.made &&
      this.controlRef === null &&
      this.pluginState === null &&
      this.attempts === null &&
      !this.clocks.waiting &&
      !this.timers.active
    );
  }

  /** The valve in front of the plugin (ENG-02), made on first use: most runs never touch one. */
  get valve(): Valve {
    return this.valves.valve;
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
    this.run.emitter(event);
  }

  runWorkflow(request: Parameters<SubWorkflowRunner>[0], signal: AbortSignal): Promise<SubWorkflowResult> {
    return this.run.runWorkflow(request, signal);
  }

  activity(): void {
    this.clocks.activity();
  }

  /** Fires when the run, or this node, stops or times out (and once the node has ended). */
  get signal(): AbortSignal {
    return this.abort.signal;
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
    if (this.input === null) this.runTrigger(start).then(this.workDone, this.workFailed);
    else this.next();
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
    this.abort.abort(halt.error);
    this.input?.cancel();
    this.valves.release();
    if (abandon) this.clocks.failCurrentWait(halt.error);
  }

  private readonly workDone = (): void => this.ended(this.ending.end(false));

  private readonly workFailed = (error: unknown): void => {
    const end = this.ending.end(true, error);
    // OBS-02: a message without a retry policy that failed the node is its one failed attempt.
    if (this.ending.inFlightFailed && end.error) this.ctx.log.error(`attempt 1 of 1 failed: ${end.error.name}: ${end.error.message}`);
    if (error instanceof RunAbortedError) this.run.abortRun(this.node.nodeId, toErrorInfo(error));
    this.ended(end);
  };

  private ended(end: NodeEnd): void {
    if (this.over) return;
    this.over = true;
    this.timers.cancelAll();
    this.input?.cancel();
    this.abort.ended(this.node.nodeId, end.status);
    this.report.set(end.status, end.error);
    this.recorder?.end(end.status);
    for (const child of this.children) {
      child.parentEnded(end.status);
      child.input!.producerDone();
    }
    this.run.stageEnded(this, end);
  }

  // --- the loop ---------------------------------------------------------------------------------

  private async runTrigger(start: Message): Promise<void> {
    this.firstActivity(start);
    this.report.counts.received++;
    const message = this.valves.engaged ? await this.valve.admit(start) : start;
    if (this.stopped() || message === SKIP) return;
    this.ending.handling(message);
    const pending = this.handle(message);
    if (pending !== undefined) await pending;
    this.ending.handling(null);
  }

  /** Takes and handles messages until one must wait; called again by what it waited for. */
  private readonly next = (): void => {
    try {
      while (this.step());
    } catch (error) {
      this.workFailed(error);
    }
  };

  /** One message from the input; false when the loop must wait (or the input is over). */
  private step(): boolean {
    const input = this.input!;
    const item = input.tryTake();
    if (item === EMPTY) {
      input.whenReady(this.next);
      return false;
    }
    if (item === END) return (this.drained(), false);
    if (this.report.counts.received === 0) this.firstActivity(item);
    this.report.counts.received++;
    if (!this.valves.engaged) return this.handled(item, item);
    // An engaged valve is waited for like an await, even when it answers at once.
    Promise.resolve(this.valve.admit(item)).then((message) => this.admitted(item, message), this.workFailed);
    return false;
  }

  private admitted(item: Message, message: Message | typeof SKIP): void {
    try {
      if (this.stopped()) this.drained();
      else if (this.handled(item, message)) this.next();
    } catch (error) {
      this.workFailed(error);
    }
  }

  /** An admitted message through the plugin (or past it, skipped); true to go on with the next at once. */
  private handled(item: Message, message: Message | typeof SKIP): boolean {
    this.ending.handling(message === SKIP ? null : message);
    const pending = message === SKIP ? this.send({ payload: item.payload }, item) : this.handle(message);
    if (pending === undefined) return this.goesOn();
    pending.then(this.afterWait, this.workFailed);
    return false;
  }

  private readonly afterWait = (): void => {
    if (this.goesOn()) this.next();
  };

  private goesOn(): boolean {
    this.ending.handling(null);
    if (this.stopped()) return (this.drained(), false);
    if ((this.report.counts.received & 255) === 0) this.report.progress();
    return true;
  }

  /** The input is over (or the node stopped): the plugin's `finish`, then the end. */
  private drained(): void {
    if (!this.stopped() && !this.ending.failedUpstream && this.node.plugin.finish) this.runFinish().then(this.workDone, this.workFailed);
    else this.workDone();
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
  send(out: OutputMessage, input: Message | undefined, checked = false): Promise<void> | undefined {
    return this.output.send(out, input, checked);
  }

  checkOutput(out: OutputMessage, input: Message): void {
    this.output.check(out, input);
  }

  triggerGate(): Promise<void> | null {
    return this.node.kind === 'trigger' && this.valves.engaged ? this.valve.waitWhilePaused() : null;
  }

  publishResult(message: Message): void {
    this.run.result(this.node.nodeId, message);
  }

  countFailure(failed: FailedMessage): void {
    this.report.counts.failed++;
    this.ending.messageFailed(failed);
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
