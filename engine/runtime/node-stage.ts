import type { ErrorInfo, NodeCounts, UnnumberedEvent } from '../../shared/events/events';
import { isFailure, isTerminal, type Status } from '../../shared/status/status';
import type { NodeControl, PluginResult, SubWorkflowResult, SubWorkflowRunner } from '../plugins/contract';
import type { PluginServices } from '../plugins/services';
import { Channel, EMPTY, END } from './channel';
import { BadInputError, CancelledError, failedMessageInfo, NodeTimeoutError, RunAbortedError, toErrorInfo, type FailedMessage } from './errors';
import { renderTemplate } from '../plugins/expressions/template';
import { runWithPolicy } from './message-attempts';
import type { Message, OutputMessage } from './message';
import { type NodeTimers, type NodeTimer } from './node-timers';
import { NodeReport } from './node-report';
import type { PreparedNode } from './prepared-workflow';
import { NO_CONTROL, type NodeRecorder, type RunControl, type RunRecorder } from './run-hooks';
import { StageContext, type ContextHost } from './stage-context';
import { StageOutput } from './stage-output';
import type { Random } from './random';
import { SKIP, Valve, type ValveState } from './valve';
import type { MessageLimits } from '../security/message-size';

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
  stage(nodeId: string): NodeStage;
  /** A terminal received a message (OBS-03); the run publishes it and feeds a sub-workflow's collector. */
  result(nodeId: string, message: Message): void;
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

/** A node ended by a timer or a stop, not by its own work. */
type NodeHalt = { status: 'TIMED_OUT' | 'CANCELLED' | 'STOPPED'; error: Error };

/**
 * One node of a running workflow (ENG-02), in the card's order: merged input (one bounded channel all
 * parents write to, or a dropping edge buffer) → valve (pause, step, breakpoint, skip) → plugin call
 * (attempts, timeouts, retry, onError) → clocks and status → broadcast to the children, awaiting a full
 * child (back-pressure). When nothing is asynchronous the hot path takes no promise per message.
 */
export class NodeStage implements ContextHost {
  readonly input: Channel<Message> | null;
  private valveRef: Valve | null = null;
  /** The id of the message held at the valve as last reported. */
  private heldId: string | null = null;
  private pluginState: Record<string, unknown> | null = null;
  readonly timers: NodeTimers;
  private readonly report: NodeReport;
  private upstreamFailed = false;
  /** The last message whose attempts all failed, for the error of a node that this failure ends. */
  private lastFailed: FailedMessage | null = null;
  /** The message being handled without a retry policy, for the error should it fail the node. */
  private inFlight: Message | null = null;
  private parentSucceeded = false;
  private readonly output: StageOutput;
  /** Made on first use of the node's signal: most plugins never look at it, and runs start faster without. */
  private abortController: AbortController | null = null;
  private abortReason: unknown = undefined;
  private halt: NodeHalt | null = null;
  private busy = false;
  /** The idle timeout in force: the prepared one, or the one a templated `timeoutSeconds` gave at the first message. */
  private idleTimeoutMs: number;
  private lastActivity = 0;
  private frozenAt = 0;
  private watchdog: NodeTimer | null = null;
  private failWait: ((error: unknown) => void) | null = null;
  private controlRef: NodeControl | null = null;
  readonly ctx: StageContext;
  readonly recorder: NodeRecorder | null;

  constructor(
    readonly node: PreparedNode,
    private readonly run: StageRun,
    channelCapacity: number,
  ) {
    this.timers = run.timers();
    this.idleTimeoutMs = node.idleTimeoutMs;
    const buffer = node.edgeBuffer;
    this.input = node.incoming === 0 ? null : buffer
      ? new Channel<Message>(buffer.size, node.incoming, { overflow: buffer.overflow, onDrop: () => this.dropped() })
      : new Channel<Message>(channelCapacity, node.incoming);
    const input = this.input;
    this.report = new NodeReport(run.executionId, node.nodeId, this.timers, (event) => run.emit(event), input ? () => ({ used: input.length, size: input.capacity }) : undefined);
    this.ctx = new StageContext(this);
    this.recorder = run.recorder === null ? null : run.recorder.node(node.nodeId);
    this.output = new StageOutput(this);
  }

  /** The valve in front of the plugin (ENG-02), made on first use: most runs never touch one. */
  get valve(): Valve {
    return (this.valveRef ??= new Valve((state) => this.valveChanged(state)));
  }

  /** Freezes or thaws the clocks, and reports a message newly held at the valve or let go (the debugger's cue). */
  private valveChanged(state: ValveState): void {
    if (state.paused || state.held) this.freezeClocks();
    else this.thawClocks();
    const held = state.held?.id ?? null;
    if (held === this.heldId) return;
    this.heldId = held;
    this.report.held(held);
  }

  /** Freezes every clock of the node; the idle clock's reference moves on by the frozen time when it thaws. */
  private freezeClocks(): void {
    if (!this.timers.isFrozen) this.frozenAt = this.timers.now();
    this.timers.freeze();
  }

  private thawClocks(): void {
    if (this.timers.isFrozen) this.lastActivity += this.timers.now() - this.frozenAt;
    this.timers.thaw();
  }

  private valveEngaged(): boolean {
    return this.valveRef !== null && this.valveRef.engaged;
  }

  // --- what the plugin context reads (ContextHost) ------------------------------------------------

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

  get services(): PluginServices {
    return this.run.services;
  }

  emit(event: UnnumberedEvent): void {
    this.run.emit(event);
  }

  runWorkflow(request: Parameters<SubWorkflowRunner>[0], signal: AbortSignal): Promise<SubWorkflowResult> {
    return this.run.runWorkflow(request, signal);
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

  /** Runs the node to its end; never rejects. `start` is the run's start message, used by triggers. */
  async execute(start: Message): Promise<{ status: Status; error?: ErrorInfo }> {
    let end: Status;
    let error: ErrorInfo | undefined;
    try {
      if (this.input === null) await this.runTrigger(start);
      else await this.consume();
      end = this.endStatus();
      if (this.halt && this.halt.status !== 'CANCELLED') error = toErrorInfo(this.halt.error);
    } catch (e) {
      end = this.halt?.status ?? (this.upstreamFailed ? 'UPSTREAM_FAILED' : this.run.cancelled ? 'CANCELLED' : 'FAILURE');
      if (end !== 'CANCELLED') error = toErrorInfo(this.halt?.error ?? e);
      const failed = end === 'FAILURE' && error ? (this.lastFailed ?? this.failedInFlight(error)) : null;
      if (failed) error = { ...error!, ...failedMessageInfo(failed) };
      if (e instanceof RunAbortedError) this.run.abortRun(this.node.nodeId, toErrorInfo(e));
    }
    this.finish(end, error);
    return error ? { status: end, error } : { status: end };
  }

  /** A parent ended; under ALL_SUCCESS a failed parent stops this node's input at once (ENG-03). */
  parentEnded(status: Status): void {
    if (status === 'SUCCESS') this.parentSucceeded = true;
    if (isFailure(status) && this.node.trigger === 'ALL_SUCCESS') {
      this.upstreamFailed = true;
      this.input?.cancel();
    }
  }

  /** Ends the node from outside: the run was cancelled, or a caller stopped this node. */
  /**
   * Ends the node from outside (CTL-03): it takes no new message and its AbortSignal fires. With
   * `abandon` (KILL) the work in its plugin is abandoned at once; otherwise that one call may finish.
   */
  stop(status: 'CANCELLED' | 'STOPPED' = 'CANCELLED', abandon = true): void {
    this.haltWith(status, new CancelledError(`node "${this.node.nodeId}" ${status === 'STOPPED' ? 'stopped' : 'cancelled'}`), abandon);
  }

  /** The run's deadline passed. */
  timeOut(error: NodeTimeoutError): void {
    this.haltWith('TIMED_OUT', error);
  }

  // --- the loop ---------------------------------------------------------------------------------

  private async runTrigger(start: Message): Promise<void> {
    this.firstActivity(start);
    this.report.counts.received++;
    const message = this.valveEngaged() ? await this.valve.admit(start) : start;
    if (this.stopped() || message === SKIP) return;
    this.inFlight = message;
    const pending = this.handle(message);
    if (pending !== undefined) await pending;
    this.inFlight = null;
  }

  /** A message without a retry policy failed the node (its one attempt): logged as ERROR (OBS-02). */
  private failedInFlight(error: ErrorInfo): FailedMessage | null {
    if (this.inFlight === null) return null;
    this.ctx.log.error(`attempt 1 of 1 failed: ${error.name}: ${error.message}`);
    return { attempt: 1, maxAttempts: 1, input: this.inFlight.payload };
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
      this.inFlight = message === SKIP ? null : message;
      const pending = message === SKIP ? this.send({ payload: item.payload }, item) : this.handle(message);
      if (pending !== undefined) await pending;
      this.inFlight = null;
      if (this.stopped()) break;
      if ((this.report.counts.received & 255) === 0) this.report.progress();
    }
    if (!this.stopped() && !this.upstreamFailed && this.node.plugin.finish) await this.runFinish();
  }

  /** Handles one admitted message; returns a promise only when something had to wait. */
  private handle(message: Message): Promise<void> | undefined {
    if (this.node.policy.perMessageAttempts) return runWithPolicy(this, message);
    const result = this.node.plugin.process(message, this.node.config, this.ctx);
    if (isThenable(result)) return this.finishAsync(result, message);
    if (this.node.kind === 'terminal') this.run.result(this.node.nodeId, message);
    return this.emitAll(result, message);
  }

  private async finishAsync(result: Promise<PluginResult>, message: Message): Promise<void> {
    const outputs = await this.guard(result);
    if (this.node.kind === 'terminal') this.run.result(this.node.nodeId, message);
    const pending = this.emitAll(outputs, message);
    if (pending !== undefined) await pending;
  }

  private async runFinish(): Promise<void> {
    const finish = this.node.plugin.finish!;
    const outputs = await this.guard(Promise.resolve().then(() => finish(this.node.config, this.ctx)));
    const pending = this.emitAll(outputs, undefined);
    if (pending !== undefined) await pending;
  }

  // --- output (stage-output.ts) -----------------------------------------------------------------

  /** Emits a plugin's result: an array (synchronously where possible) or a sync or async iterable. */
  emitAll(result: PluginResult, input: Message | undefined): Promise<void> | undefined {
    return this.output.emitAll(result, input);
  }

  /** Sends one output to every child on its port, in order; returns a promise only if a child was full. */
  send(out: OutputMessage, input: Message | undefined, checked = false): Promise<void> | undefined {
    return this.output.send(out, input, checked);
  }

  /** Holds an output to the message limits (SEC-03) before it is sent; throws the typed error over one. */
  checkOutput(out: OutputMessage, input: Message): void {
    this.output.check(out, input);
  }

  get outputLimits(): MessageLimits {
    return this.run.services.limits;
  }

  /** Holds a trigger's next output while its valve is paused (CTL-02). */
  triggerGate(): Promise<void> | null {
    return this.node.kind === 'trigger' && this.valveEngaged() ? this.valve.waitWhilePaused() : null;
  }

  countEmitted(): void {
    this.report.counts.emitted++;
  }

  get freezeMessages(): boolean {
    return this.run.freezeMessages;
  }

  childInput(nodeId: string): Channel<Message> {
    return this.run.stage(nodeId).input!;
  }

  // --- clocks ---------------------------------------------------------------------------------

  /**
   * Waits for plugin work under the node's clocks: the idle watchdog runs while the node is busy, and a
   * timeout, a stop or an attempt's element timeout rejects the wait at once (the plugin's promise is
   * abandoned; its AbortSignal has fired).
   */
  guard<T>(work: Promise<T>): Promise<T> {
    this.busy = true;
    this.activity();
    if (this.watchdog === null) this.armWatchdog(this.idleTimeoutMs);
    return new Promise<T>((resolve, reject) => {
      this.failWait = reject;
      work.then(
        (value) => {
          this.busy = false;
          this.failWait = null;
          resolve(value);
        },
        (error: unknown) => {
          this.busy = false;
          this.failWait = null;
          reject(error);
        },
      );
    });
  }

  /** Fails the wait in progress (an attempt's element timeout). */
  failCurrentWait(error: Error): void {
    this.failWait?.(error);
  }

  activity(): void {
    this.lastActivity = this.timers.now();
  }

  private armWatchdog(delayMs: number): void {
    this.watchdog = this.timers.set(() => {
      this.watchdog = null;
      if (!this.busy) return; // re-armed by the next wait
      const idle = this.timers.now() - this.lastActivity;
      const limit = this.idleTimeoutMs;
      if (idle >= limit) this.haltWith('TIMED_OUT', new NodeTimeoutError(`node "${this.node.nodeId}" was idle for ${limit} ms (timeout)`, 'IDLE_TIMEOUT'));
      else this.armWatchdog(limit - idle);
    }, delayMs);
  }

  private firstActivity(first: Message): void {
    this.report.set('RUNNING');
    if (this.node.idleTimeoutTemplate !== null) this.idleTimeoutMs = retimed(this.node.nodeId, this.node.idleTimeoutTemplate, first);
    const deadline = this.node.policy.deadlineMs;
    if (deadline !== null) {
      this.timers.set(() => this.haltWith('TIMED_OUT', new NodeTimeoutError(`node "${this.node.nodeId}" passed its deadline of ${deadline} ms`, 'DEADLINE')), deadline);
    }
  }

  // --- status ---------------------------------------------------------------------------------

  stopped(): boolean {
    return this.halt !== null || this.run.cancelled;
  }

  private haltWith(status: NodeHalt['status'], error: Error, abandon = true): void {
    if (this.halt !== null || isTerminal(this.report.status)) return;
    // A node already ending for its parents' failure keeps that reason when the run is cancelled around it.
    if (!(status === 'CANCELLED' && this.upstreamFailed)) this.halt = { status, error };
    this.abortWith(error);
    this.input?.cancel();
    this.valveRef?.resume();
    if (abandon) this.failWait?.(error);
  }

  private endStatus(): Status {
    if (this.halt) return this.halt.status;
    if (this.upstreamFailed) return 'UPSTREAM_FAILED';
    if (this.run.cancelled) return 'CANCELLED';
    if (this.node.incoming > 0 && this.node.trigger === 'ONE_SUCCESS' && !this.parentSucceeded) return 'UPSTREAM_FAILED';
    return 'SUCCESS';
  }

  private finish(end: Status, error: ErrorInfo | undefined): void {
    this.timers.cancelAll();
    this.input?.cancel();
    // Work a plugin left running is told to stop; the reason is only built if anyone listens.
    if (this.abortController !== null && !this.abortController.signal.aborted) this.abortWith(new CancelledError(`node "${this.node.nodeId}" ended ${end}`));
    this.report.set(end, error);
    this.recorder?.end(end);
    for (const children of this.node.outgoing.values()) {
      for (const childId of children) {
        const child = this.run.stage(childId);
        child.parentEnded(end);
        child.input!.producerDone();
      }
    }
  }

  /** A message failed for good; its attempt and input go with the node's error should that end the node. */
  countFailure(failed: FailedMessage): void {
    this.report.counts.failed++;
    this.lastFailed = failed;
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

  get runRandom(): Random {
    return this.run.random;
  }

  publishResult(message: Message): void {
    this.run.result(this.node.nodeId, message);
  }
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
