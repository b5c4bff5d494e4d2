import type { RemoteAttemptInfo } from '../../shared/api/workers.schema';
import type { Plugin, PluginContext } from '../plugins/contract';
import type { Clock } from '../runtime/clock';
import type { NodePlacement } from '../runtime/prepared-workflow';
import { toErrorInfo } from '../runtime/errors';
import type { Message, OutputMessage } from '../runtime/message';
import { jsonSize, MessageTooLargeError } from '../security/message-size';
import { AttemptRecords } from './attempt-records';
import type { ConnectedWorker } from './connected-worker';
import type { RemoteAttempt } from './remote-attempt';
import type { WorkerRegistry } from './worker-registry';

/**
 * Remote processors (SCL-01). The local plugin still gives the node its type, schema, ports, timeouts and
 * validation; only `process` differs: each call is one attempt on the pool's worker with the most free slots,
 * returned as an async stream of outputs. So the node wrapper's retries, timeouts, all-or-nothing output and
 * failure policy apply to remote attempts unchanged.
 */
export class WorkerPlacement implements NodePlacement {
  /** Which worker ran each attempt (the inspector). */
  readonly records = new AttemptRecords();

  constructor(
    private readonly registry: WorkerRegistry,
    private readonly clock: Clock,
  ) {}

  remote(local: Plugin<unknown>, pool: string, config: Record<string, unknown>): Plugin<unknown> {
    return {
      type: local.type,
      kind: local.kind,
      title: local.title,
      description: local.description,
      configSchema: local.configSchema,
      defaultConfig: local.defaultConfig,
      outputs: local.outputs,
      ...(local.outputsFromConfig ? { outputsFromConfig: local.outputsFromConfig } : {}),
      ...(local.defaultTimeoutMs ? { defaultTimeoutMs: (parsed: unknown) => local.defaultTimeoutMs!(parsed) } : {}),
      process: (message, _parsed, ctx) => this.attempt(pool, local.type, config, message, ctx),
    };
  }

  /**
   * One attempt: fails at once (retryably) when no worker of the pool may run the type, and with bad input
   * when the message is over the byte limit; otherwise the attempt's outputs as they arrive.
   */
  private attempt(pool: string, type: string, config: Record<string, unknown>, message: Message, ctx: PluginContext): AsyncIterable<OutputMessage> {
    const max = this.registry.maxMessageBytes;
    // An input over the limit would not fit a frame (depth was held where the message was made).
    if (jsonSize(message.payload, max) > max) throw new MessageTooLargeError(`message ${message.id}`, max);
    const record = this.records.start(ctx.executionId, {
      nodeId: ctx.nodeId,
      messageId: message.id,
      attempt: ctx.attempt,
      pool,
      worker: null,
      startedAt: this.clock.now(),
      outcome: 'RUNNING',
    });
    const signal = ctx.signal;
    try {
      if (signal.aborted) throw signal.reason;
      const opened = this.registry.acquire(
        pool,
        type,
        signal,
        () => ctx.heartbeat(),
        (worker) => this.open(worker, type, config, message, ctx, record),
      );
      return opened instanceof Promise ? new PendingAttempt(opened) : opened;
    } catch (error) {
      this.records.end(record, 'UNAVAILABLE', this.clock.now(), toErrorInfo(error));
      throw error;
    }
  }

  private open(
    worker: ConnectedWorker,
    type: string,
    config: Record<string, unknown>,
    message: Message,
    ctx: PluginContext,
    record: RemoteAttemptInfo,
  ): RemoteAttempt {
    record.worker = worker.name;
    const start = { type, config, executionId: ctx.executionId, session: ctx.session, workflowId: ctx.workflowId, nodeId: ctx.nodeId, attempt: ctx.attempt };
    const input = { id: message.id, payload: message.payload, metadata: message.metadata, headers: message.headers };
    const hooks = {
      heartbeat: () => ctx.heartbeat(),
      log: (level: 'debug' | 'info' | 'warn' | 'error', text: string) => ctx.log[level](text),
      ended: (outcome: RemoteAttemptInfo['outcome'], error: Error | null) =>
        this.records.end(record, outcome, this.clock.now(), error ? toErrorInfo(error) : undefined),
    };
    return worker.open(start, [input], hooks, ctx.signal, this.clock.now());
  }
}

/** An attempt waiting for a free slot: reads as the attempt once it has one. */
class PendingAttempt implements AsyncIterable<OutputMessage>, AsyncIterator<OutputMessage> {
  constructor(private readonly attempt: Promise<RemoteAttempt>) {
    // A wait that fails is reported by next(); an abandoned one must not be an unhandled rejection.
    attempt.catch(() => undefined);
  }

  next(): Promise<IteratorResult<OutputMessage>> {
    return this.attempt.then((a) => a.next());
  }

  return(): Promise<IteratorResult<OutputMessage>> {
    void this.attempt.then(
      (a) => a.return(),
      () => undefined,
    );
    return Promise.resolve({ done: true, value: undefined });
  }

  [Symbol.asyncIterator](): AsyncIterator<OutputMessage> {
    return this;
  }
}
