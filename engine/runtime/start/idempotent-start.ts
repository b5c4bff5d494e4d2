import { ConflictError } from '../../engine-errors';
import { contentHash } from '../../definitions/content-hash';
import type { IdempotencyCache } from '../../scheduler/idempotency-cache';
import type { IdempotencyRecord } from '../../store/start-record';
import type { StartPlan } from './start-types';

/** What the idempotency step decides: a repeat answered with the first start's id, or a new start (with its key, if any). */
export type IdempotencyOutcome = { repeat: Promise<string> } | { plan: StartPlan; record: IdempotencyRecord | null };

/**
 * Step 2 of a caller's start (ADM-02): a repeat with the same key, session and workflow within the window
 * gets the first run's id (even while that start is still in progress); the same key with a different
 * payload is a CONFLICT. A new keyed start carries its key on to RUN_STARTED.
 */
export function checkIdempotency(cache: IdempotencyCache, plan: StartPlan, key: string | undefined): IdempotencyOutcome {
  if (key === undefined) return { plan, record: null };
  const scope = `${plan.session}\u0000${plan.workflowId}`;
  const payloadHash = contentHash(plan.payload);
  const found = cache.lookup(scope, key, payloadHash);
  if (found.kind === 'conflict') throw new ConflictError(`idempotency key "${key}" was already used with a different payload`, 'idempotencyKey');
  if (found.kind === 'repeat') return { repeat: found.start };
  const record = { scope, key, payloadHash };
  return { plan: { ...plan, idempotency: record }, record };
}

/** Remembers a keyed start in progress, so a repeat arriving meanwhile waits for the same id (a failed start is forgotten). */
export function rememberStart(cache: IdempotencyCache, record: IdempotencyRecord, started: Promise<string>): void {
  cache.remember(record.scope, record.key, record.payloadHash, started);
}
