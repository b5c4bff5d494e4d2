import { z } from 'zod';
import { EnginePolicy } from '../../../../shared/workflow/engine-policy.schema';
import { describeFields, pathKey, type FieldSpec, type JsonSchema } from './schema-fields';

/** Labels and hints of the engine policy form (the schema itself comes from `EnginePolicy`). */
const TEXT: Readonly<Record<string, { label: string; description?: string; suggest?: 'worker-pools' }>> = {
  'engine.retry': { label: 'Retry', description: 'Retry a failed element; fill Max attempts to enable.' },
  'engine.retry.maxAttempts': { label: 'Max attempts', description: 'Attempts including the first (1–100).' },
  'engine.retry.backoffMs': { label: 'Backoff (ms)', description: 'Wait before the first retry; doubles each time.' },
  'engine.retry.maxBackoffMs': { label: 'Max backoff (ms)', description: 'Upper bound of the wait; below the node timeout.' },
  'engine.retry.retryOn': { label: 'Retry on', description: 'Error codes to retry, one per line (empty: all but bad input).' },
  'engine.retry.noRetryOn': { label: 'Never retry on', description: 'Error codes never retried, one per line.' },
  'engine.onError': { label: 'On error', description: 'FAIL stops the node; CONTINUE drops the element; ROUTE sends {error, input} to the "error" port.' },
  'engine.trigger': { label: 'Join trigger', description: 'With several parents: when this node runs.' },
  'engine.elementTimeoutMs': { label: 'Element timeout (ms)', description: 'Longest time for one element.' },
  'engine.deadlineMs': { label: 'Deadline (ms)', description: 'Longest time for the whole node; above the element timeout.' },
  'engine.failureBudget': { label: 'Failure budget', description: 'Fail the node after this many failures within the window.' },
  'engine.failureBudget.maxFailures': { label: 'Max failures' },
  'engine.failureBudget.windowMs': { label: 'Window (ms)' },
  'engine.edgeBuffer': { label: 'Edge buffer', description: 'Bounded input buffer with a drop policy instead of back-pressure.' },
  'engine.edgeBuffer.size': { label: 'Size' },
  'engine.edgeBuffer.overflow': { label: 'Overflow' },
  'engine.placement': { label: 'Placement', description: "Run this node's attempts on a remote worker of a pool (SCL-01)." },
  'engine.placement.pool': {
    label: 'Pool',
    description: 'A pool of workers connected to the host; the list offers those connected now.',
    suggest: 'worker-pools',
  },
};

function relabel(fields: readonly FieldSpec[]): FieldSpec[] {
  return fields.map((f) => {
    const text = TEXT[pathKey(f.path)];
    const next = text ? { ...f, ...text } : f;
    return next.kind === 'object' ? { ...next, children: relabel(next.children) } : next;
  });
}

/** The engine policy form (`config.engine`), generated from the shared `EnginePolicy` schema. */
export const ENGINE_POLICY_FIELDS: readonly FieldSpec[] = relabel(describeFields(z.toJSONSchema(EnginePolicy, { io: 'input' }) as JsonSchema, ['engine']));

/** `timeoutSeconds` is a node field, not config; shown with the policy. */
export const TIMEOUT_FIELD: FieldSpec = {
  key: 'timeoutSeconds',
  path: ['timeoutSeconds'],
  kind: 'number',
  label: 'Node timeout (s)',
  description: 'Longest time the node may take per element; retries back off below it.',
  required: false,
  exclusiveMinimum: 0,
};
