import type { OutputMessage, Message } from './message';
import type { PluginResult } from '../plugins/contract';
import { NodeTimeoutError, RunAbortedError, toErrorInfo } from './errors';
import { backoffDelay, FailureBudget, isRetryable } from './failure-policy';
import type { NodeStage } from './node-stage';

const budgets = new WeakMap<NodeStage, FailureBudget>();

/**
 * A message under a failure policy (ENG-04): each try is an attempt with an `attempt` header; its output
 * is held back until it succeeds (all or nothing), so a retry or a dead letter never lands on top of a
 * partial result. Retries back off exponentially with jitter; bad input, aborts and cancels are never
 * retried. When the attempts are spent: FAIL ends the node, CONTINUE drops the message, ROUTE sends
 * `{error, input}` to the `error` port — and a failure budget can still end the node.
 */
export async function runWithPolicy(stage: NodeStage, message: Message): Promise<void> {
  const { policy } = stage.node;
  for (let attempt = 1; ; attempt++) {
    const attemptMessage: Message = { ...message, headers: { ...message.headers, attempt } };
    try {
      const outputs = await runAttempt(stage, attemptMessage, attempt);
      if (attempt > 1) stage.attemptsEnded();
      if (stage.node.kind === 'terminal') stage.publishResult(attemptMessage);
      for (const out of outputs) {
        const pending = stage.send(out, message, true);
        if (pending !== undefined) await pending;
      }
      return;
    } catch (error) {
      if (stage.stopped() || error instanceof RunAbortedError) throw error;
      if (attempt < policy.maxAttempts && isRetryable(policy, error)) {
        stage.countRetry(attempt + 1);
        const delay = backoffDelay(policy, attempt + 1, stage.runRandom);
        stage.ctx.log.error(`attempt ${attempt} of ${policy.maxAttempts} failed (${describe(error)}); retrying in ${delay} ms`);
        await stage.guard(stage.timers.sleep(delay, stage.ctx.signal));
        continue;
      }
      if (attempt > 1) stage.attemptsEnded();
      // OBS-02: every failed attempt is an ERROR line, the last one too (the Logs tab shows the failure).
      stage.ctx.log.error(`attempt ${attempt} of ${policy.maxAttempts} failed: ${describe(error)}`);
      await messageFailed(stage, message, error, attempt);
      return;
    }
  }
}

/** One call of the plugin, its outputs collected; an element timeout fails just this attempt. */
async function runAttempt(stage: NodeStage, message: Message, attempt: number): Promise<OutputMessage[]> {
  const { plugin, config, policy } = stage.node;
  const controller = new AbortController();
  const signal = AbortSignal.any([stage.ctx.signal, controller.signal]);
  const ctx = stage.ctx.forAttempt(attempt, signal);
  const limit = policy.elementTimeoutMs;
  const timer =
    limit === null
      ? null
      : stage.timers.set(() => {
          const error = new NodeTimeoutError(`node "${stage.node.nodeId}" attempt ${attempt} took longer than ${limit} ms`, 'ELEMENT_TIMEOUT');
          controller.abort(error);
          stage.failCurrentWait(error);
        }, limit);
  try {
    const result: PluginResult = await stage.guard(Promise.resolve().then(() => plugin.process(message, config, ctx)));
    const outputs = await collect(stage, result);
    // All or nothing: an output over a limit fails this attempt before any output is sent.
    for (const out of outputs) stage.checkOutput(out, message);
    return outputs;
  } finally {
    timer?.cancel();
  }
}

async function collect(stage: NodeStage, result: PluginResult): Promise<OutputMessage[]> {
  if (!result) return [];
  if (Array.isArray(result)) return result;
  if (!(Symbol.asyncIterator in result)) return [...result];
  const outputs: OutputMessage[] = [];
  const iterator = result[Symbol.asyncIterator]();
  for (;;) {
    const next = await stage.guard(iterator.next());
    if (next.done) return outputs;
    stage.activity();
    outputs.push(next.value);
  }
}

async function messageFailed(stage: NodeStage, message: Message, error: unknown, attempt: number): Promise<void> {
  const { policy, nodeId } = stage.node;
  stage.countFailure({ attempt, maxAttempts: policy.maxAttempts, input: message.payload });
  if (policy.onError === 'FAIL') throw error;
  if (policy.failureBudget) {
    let budget = budgets.get(stage);
    if (!budget) budgets.set(stage, (budget = new FailureBudget(policy.failureBudget)));
    if (budget.record(stage.timers.now())) {
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

function describe(error: unknown): string {
  const info = toErrorInfo(error);
  return `${info.name}: ${info.message}`;
}
