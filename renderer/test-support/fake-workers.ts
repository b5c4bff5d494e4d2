import { vi } from 'vitest';
import type { RemoteAttemptInfo, WorkersView } from '../../shared/api/workers.schema';

/** The workers operations of the renderer's fake host: a view and per-run attempts the test sets. */
export function createFakeWorkers() {
  const state: { view: WorkersView; attempts: RemoteAttemptInfo[] } = {
    view: { at: 0, listener: null, leaseMs: 15_000, pools: [], workers: [] },
    attempts: [],
  };
  const ops = {
    'workers.list': vi.fn(async () => structuredClone(state.view)),
    'workers.attempts': vi.fn(async ({ nodeId }: { executionId: string; nodeId?: string }) =>
      structuredClone(state.attempts.filter((a) => nodeId === undefined || a.nodeId === nodeId)),
    ),
  };
  return { state, ops };
}
