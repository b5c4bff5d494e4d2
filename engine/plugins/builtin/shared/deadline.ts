import type { PluginContext } from '../../contract';

/** A request that ran past its node's `timeoutMs`: retryable like any failed call. */
export class RequestTimeoutError extends Error {
  override readonly name = 'RequestTimeoutError';
  readonly code = 'REQUEST_TIMEOUT';
}

/**
 * Runs `work` with a signal that fires when the node is cancelled (its AbortSignal: CANCEL, KILL, timeouts)
 * or when `timeoutMs` of engine time pass; the timer is cleared as soon as the work settles.
 */
export async function withDeadline<T>(ctx: PluginContext, timeoutMs: number, what: string, work: (signal: AbortSignal) => Promise<T>): Promise<T> {
  const controller = new AbortController();
  const onCancel = (): void => controller.abort(ctx.signal.reason);
  if (ctx.signal.aborted) onCancel();
  else ctx.signal.addEventListener('abort', onCancel, { once: true });
  const settled = new AbortController();
  ctx.services.sleep(timeoutMs, settled.signal).then(
    () => controller.abort(new RequestTimeoutError(`${what} took longer than ${timeoutMs} ms`)),
    () => undefined,
  );
  try {
    return await work(controller.signal);
  } finally {
    settled.abort();
    ctx.signal.removeEventListener('abort', onCancel);
  }
}
