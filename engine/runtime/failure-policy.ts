import type { EnginePolicy, OnError } from '../../shared/workflow/engine-policy.schema';
import { EngineError, errorKeys } from './errors';
import type { Random } from './random';

/** The node's engine policy with defaults applied (ENG-04, ENG-05). */
export interface NodePolicy {
  maxAttempts: number;
  backoffMs: number;
  maxBackoffMs: number;
  retryOn: ReadonlySet<string> | null;
  noRetryOn: ReadonlySet<string>;
  onError: OnError;
  elementTimeoutMs: number | null;
  deadlineMs: number | null;
  failureBudget: { maxFailures: number; windowMs: number } | null;
  /** True when each message is an attempt of its own: with retry, onError or elementTimeoutMs. */
  perMessageAttempts: boolean;
}

export const DEFAULT_BACKOFF_MS = 100;
export const DEFAULT_MAX_BACKOFF_MS = 30_000;

export function resolvePolicy(policy: EnginePolicy): NodePolicy {
  const retry = policy.retry;
  const onError = policy.onError ?? 'FAIL';
  return {
    maxAttempts: retry?.maxAttempts ?? 1,
    backoffMs: retry?.backoffMs ?? DEFAULT_BACKOFF_MS,
    maxBackoffMs: retry?.maxBackoffMs ?? DEFAULT_MAX_BACKOFF_MS,
    retryOn: retry?.retryOn ? new Set(retry.retryOn) : null,
    noRetryOn: new Set(retry?.noRetryOn ?? []),
    onError,
    elementTimeoutMs: policy.elementTimeoutMs ?? null,
    deadlineMs: policy.deadlineMs ?? null,
    failureBudget: policy.failureBudget ?? null,
    perMessageAttempts: retry !== undefined || onError !== 'FAIL' || policy.elementTimeoutMs !== undefined,
  };
}

/** Whether a failed attempt may be tried again: an engine error that says it may not (bad input, aborts, cancels) never is. */
export function isRetryable(policy: NodePolicy, error: unknown): boolean {
  if (error instanceof EngineError && !error.retryable) return false;
  const keys = errorKeys(error);
  if (keys.some((k) => policy.noRetryOn.has(k))) return false;
  return policy.retryOn === null || keys.some((k) => policy.retryOn!.has(k));
}

/**
 * Delay before attempt `next` (2, 3, …): exponential from `backoffMs`, capped at `maxBackoffMs`, with
 * "equal jitter" (half fixed, half random) so retries of many messages spread out.
 */
export function backoffDelay(policy: NodePolicy, next: number, random: Random): number {
  const exponential = policy.backoffMs * 2 ** Math.max(0, next - 2);
  const capped = Math.min(policy.maxBackoffMs, exponential);
  return Math.round(capped / 2 + (random() * capped) / 2);
}

/** Counts failures in a sliding window; `exceeded` once more than maxFailures fall inside it (ENG-04). */
export class FailureBudget {
  private readonly times: number[] = [];

  constructor(private readonly budget: { maxFailures: number; windowMs: number }) {}

  record(now: number): boolean {
    this.times.push(now);
    while (this.times.length && this.times[0]! <= now - this.budget.windowMs) this.times.shift();
    return this.times.length > this.budget.maxFailures;
  }
}
