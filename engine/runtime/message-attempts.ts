import type { PluginResult } from '../plugins/contract';
import { NodeTimeoutError, RunAbortedError, toErrorInfo, type FailedMessage } from './errors';
import { backoffDelay, FailureBudget, isRetryable } from './failure-policy';
import type { Message, OutputMessage } from './message';
import type { PreparedNode } from './prepared-workflow';
import type { Random } from './random';
import type { StageClocks } from './stage-clocks';
import type { StageContext } from './stage-context';

/** What a message's attempts see of their node: one narrow interface. */
export interface AttemptStage {
  /** The node's plugin context; each attempt gets its own from it. */
  readonly ctx: StageContext;
  readonly clocks: StageClocks;
  /** Backoff jitter (seeded in tests). */
  readonly random: Random;
  stopped(): boolean;
  /** `checked`: the output was held to the message limits already (SEC-03). */
  send(out: OutputMessage, input: Message | undefined, checked: boolean): Promise<void> | undefined;
  /** Holds an output to the message limits (SEC-03); throws the typed error over one. */
  checkOutput(out: OutputMessage, input: Message): void;
  /** A terminal's input succeeded: published as a result (OBS-03). */
  publishResult(message: Message): void;
  countRetry(nextAttempt: number): void;
  /** A message failed for good; its attempt and input go with the node's error should that end the node. */
  countFailure(failed: FailedMessage): void;
  attemptsEnded(): void;
}

/**
 * Messages under a failure policy (ENG-04): each try is an attempt with an `attempt` header; its output
 * is held back until it succeeds (all or nothing), so a retry or a dead letter never lands on top of a
 * partial result. Retries back off exponentially with jitter; bad input, aborts and cancels are never
 * retried. When the attempts are spent: FAIL ends the node, CONTINUE drops the message, ROUTE sends
 * `{error, input}` to the `error` port — and the node's failure budget, kept here, can still end it.
 */
export class MessageAttempts {
  /** Failures in the budget's window (made at the first failure of a node that has a budget). */
  private budget: FailureBudget | null = null;

  constructor(
    private readonly node: PreparedNode,
    private readonly stage: AttemptStage,
  ) {}

  async run(message: Message): Promise<void> {
    const { policy } = this.node;
    const stage = this.stage;
    for (let attempt = 1; ; attempt++) {
      const attemptMessage: Message = { ...message, headers: { ...message.headers, attempt } };
      try {
        const outputs = await this.attempt(attemptMessage, attempt);
        if (attempt > 1) stage.attemptsEnded();
        if (this.node.kind === 'terminal') stage.publishResult(attemptMessage);
        for (const out of outputs) {
          const pending = stage.send(out, message, true);
          if (pending !== undefined) await pending;
        }
        return;
      } catch (error) {
        if (stage.stopped() || error instanceof RunAbortedError) throw error;
        if (attempt < policy.maxAttempts && isRetryable(policy, error)) {
          stage.countRetry(attempt + 1);
          const delay = backoffDelay(policy, attempt + 1, stage.random);
          stage.ctx.log.error(`attempt ${attempt} of ${policy.maxAttempts} failed (${describe(error)}); retrying in ${delay} ms`);
          await stage.clocks.guard(stage.clocks.timers.sleep(delay, stage.ctx.signal));
          continue;
        }
        if (attempt > 1) stage.attemptsEnded();
        // OBS-02: every failed attempt is an ERROR line, the last one too (the Logs tab shows the failure).
        stage.ctx.log.error(`attempt ${attempt} of ${policy.maxAttempts} failed: ${describe(error)}`);
        await this.failed(message, error, attempt);
        return;
      }
    }
  }

  /** One call of the plugin, its outputs collected; an element timeout fails just this attempt. */
  private async attempt(message: Message, attempt: number): Promise<OutputMessage[]> {
    const { plugin, config, policy, nodeId } = this.node;
    const { clocks, ctx: nodeCtx } = this.stage;
    const controller = new AbortController();
    const signal = AbortSignal.any([nodeCtx.signal, controller.signal]);
    const ctx = nodeCtx.forAttempt(attempt, signal);
    const limit = policy.elementTimeoutMs;
    const timer =
      limit === null
        ? null
        : clocks.timers.set(() => {
            const error = new NodeTimeoutError(`node "${nodeId}" attempt ${attempt} took longer than ${limit} ms`, 'ELEMENT_TIMEOUT');
            controller.abort(error);
            clocks.failCurrentWait(error);
          }, limit);
    try {
      const result: PluginResult = await clocks.guard(Promise.resolve().then(() => plugin.process(message, config, ctx)));
      const outputs = await this.collect(result);
      // All or nothing: an output over a limit fails this attempt before any output is sent.
      for (const out of outputs) this.stage.checkOutput(out, message);
      return outputs;
    } finally {
      timer?.cancel();
    }
  }

  private async collect(result: PluginResult): Promise<OutputMessage[]> {
    if (!result) return [];
    if (Array.isArray(result)) return result;
    if (!(Symbol.asyncIterator in result)) return [...result];
    const { clocks } = this.stage;
    const outputs: OutputMessage[] = [];
    const iterator = result[Symbol.asyncIterator]();
    for (;;) {
      const next = await clocks.guard(iterator.next());
      if (next.done) return outputs;
      clocks.activity();
      outputs.push(next.value);
    }
  }

  /** The attempts are spent: FAIL, CONTINUE or ROUTE, and the failure budget. */
  private async failed(message: Message, error: unknown, attempt: number): Promise<void> {
    const { policy, nodeId } = this.node;
    const stage = this.stage;
    stage.countFailure({ attempt, maxAttempts: policy.maxAttempts, input: message.payload });
    if (policy.onError === 'FAIL') throw error;
    if (policy.failureBudget) {
      this.budget ??= new FailureBudget(policy.failureBudget);
      if (this.budget.record(stage.clocks.timers.now())) {
        const { maxFailures, windowMs } = policy.failureBudget;
        const exceeded = new Error(`node "${nodeId}" failed more than ${maxFailures} messages within ${windowMs} ms (last: ${describe(error)})`);
        exceeded.name = 'FailureBudgetExceeded';
        throw exceeded;
      }
    }
    if (policy.onError === 'CONTINUE') {
      stage.ctx.log.warn(`message ${message.id} dropped after failing: ${describe(error)}`);
      return;
    }
    stage.ctx.log.warn(`message ${message.id} routed to the error port: ${describe(error)}`);
    const pending = stage.send({ payload: { error: toErrorInfo(error), input: message.payload }, port: 'error' }, message, true);
    if (pending !== undefined) await pending;
  }
}

function describe(error: unknown): string {
  const info = toErrorInfo(error);
  return `${info.name}: ${info.message}`;
}
