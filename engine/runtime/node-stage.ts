import type { ErrorInfo, UnnumberedEvent } from '../../shared/events/events';
import { DEFAULT_PORT } from '../../shared/workflow/engine-policy.schema';
import { isFailure, type Status } from '../../shared/status/status';
import type { PluginContext, PluginLogger, PluginResult } from '../plugins/contract';
import { Channel, EMPTY, END } from './channel';
import { toErrorInfo } from './errors';
import type { Message, OutputMessage } from './message';
import type { PreparedNode } from './prepared-workflow';

/** What a stage needs from its run. */
export interface StageRun {
  readonly executionId: string;
  readonly session: string;
  readonly workflowId: string;
  readonly signal: AbortSignal;
  readonly cancelled: boolean;
  now(): number;
  emit(event: UnnumberedEvent): void;
  stage(nodeId: string): NodeStage;
}

/** Minimum time between two progress events of one node. */
const PROGRESS_INTERVAL_MS = 200;

/**
 * One node of a running workflow (ENG-02): takes its merged input, calls the plugin, broadcasts the
 * outputs to its children (awaiting each child's channel: back-pressure), and reports its status.
 */
export class NodeStage {
  readonly input: Channel<Message> | null;
  private status: Status = 'PENDING';
  private received = 0;
  private emitted = 0;
  private upstreamFailed = false;
  private parentSucceeded = false;
  private lastProgressAt = 0;
  private nextMessageId = 1;
  private readonly ctx: PluginContext;

  constructor(
    readonly node: PreparedNode,
    private readonly run: StageRun,
    channelCapacity: number,
  ) {
    this.input = node.incoming > 0 ? new Channel<Message>(channelCapacity, node.incoming) : null;
    this.ctx = {
      executionId: run.executionId,
      session: run.session,
      workflowId: run.workflowId,
      nodeId: node.nodeId,
      signal: run.signal,
      log: this.logger(),
      heartbeat: () => {},
    };
  }

  get currentStatus(): Status {
    return this.status;
  }

  get isSink(): boolean {
    return this.node.outgoing.size === 0;
  }

  /** Runs the node to its end; never rejects. `start` is the run's start message, used by triggers. */
  async execute(start: Message): Promise<{ status: Status; error?: ErrorInfo }> {
    let end: Status;
    let error: ErrorInfo | undefined;
    try {
      end = this.input === null ? await this.runTrigger(start) : await this.runConsumer();
    } catch (e) {
      end = 'FAILURE';
      error = toErrorInfo(e);
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

  /** Releases anything waiting on this node's input (run cancelled). */
  cancel(): void {
    this.input?.cancel();
  }

  private async runTrigger(start: Message): Promise<Status> {
    this.touch();
    this.received++;
    await this.handle(start);
    return this.run.cancelled ? 'CANCELLED' : 'SUCCESS';
  }

  private async runConsumer(): Promise<Status> {
    const input = this.input!;
    for (;;) {
      let item = input.tryTake();
      if (item === EMPTY) item = await input.take();
      if (item === END) break;
      if (this.received === 0) this.touch();
      this.received++;
      await this.handle(item);
      if (this.run.cancelled) break;
      this.maybeReportProgress();
    }
    if (this.upstreamFailed) return 'UPSTREAM_FAILED';
    if (this.run.cancelled) return 'CANCELLED';
    if (this.node.trigger === 'ONE_SUCCESS' && !this.parentSucceeded) return 'UPSTREAM_FAILED';
    return 'SUCCESS';
  }

  private async handle(message: Message): Promise<void> {
    const result = await this.node.plugin.process(message, this.node.config, this.ctx);
    if (this.node.plugin.kind === 'terminal') {
      this.run.emit({ type: 'NODE_RESULT', executionId: this.run.executionId, at: this.run.now(), nodeId: this.node.nodeId, messageId: message.id, payload: message.payload });
    }
    await this.broadcastAll(result, message);
  }

  private async broadcastAll(result: PluginResult, input: Message): Promise<void> {
    if (!result) return;
    if (Array.isArray(result)) {
      for (const out of result) await this.broadcast(out, input);
      return;
    }
    for await (const out of result) {
      await this.broadcast(out, input);
      if (this.run.cancelled) return;
    }
  }

  /** Sends one output to every child on its port, in order; a full child makes this wait. */
  private async broadcast(out: OutputMessage, input: Message): Promise<void> {
    const children = this.node.outgoing.get(out.port ?? DEFAULT_PORT);
    this.emitted++;
    if (!children) return;
    const message: Message = {
      id: `${this.node.nodeId}#${this.nextMessageId++}`,
      payload: out.payload,
      metadata: out.metadata ?? input.metadata,
      headers: {},
    };
    for (const childId of children) {
      const channel = this.run.stage(childId).input!;
      if (!channel.offer(message)) await channel.send(message);
    }
  }

  private touch(): void {
    this.setStatus('RUNNING');
  }

  private maybeReportProgress(): void {
    const now = this.run.now();
    if (now - this.lastProgressAt < PROGRESS_INTERVAL_MS) return;
    this.lastProgressAt = now;
    this.emitStatus(undefined);
  }

  private finish(end: Status, error: ErrorInfo | undefined): void {
    this.setStatus(end, error);
    for (const children of this.node.outgoing.values()) {
      for (const childId of children) {
        const child = this.run.stage(childId);
        child.parentEnded(end);
        child.input!.producerDone();
      }
    }
  }

  private setStatus(next: Status, error?: ErrorInfo): void {
    if (next === this.status) return;
    this.status = next;
    this.lastProgressAt = this.run.now();
    this.emitStatus(error);
  }

  private emitStatus(error: ErrorInfo | undefined): void {
    const event: UnnumberedEvent = {
      type: 'NODE_STATUS',
      executionId: this.run.executionId,
      at: this.run.now(),
      nodeId: this.node.nodeId,
      status: this.status,
      counts: { received: this.received, emitted: this.emitted },
    };
    if (error) event.error = error;
    this.run.emit(event);
  }

  private logger(): PluginLogger {
    const line = (level: 'debug' | 'info' | 'warn' | 'error') => (text: string) =>
      this.run.emit({ type: 'LOG', executionId: this.run.executionId, at: this.run.now(), nodeId: this.node.nodeId, level, text });
    return { debug: line('debug'), info: line('info'), warn: line('warn'), error: line('error') };
  }
}
