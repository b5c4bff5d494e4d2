import { vi } from 'vitest';
import type { MetricsSnapshot } from '../../shared/api/metrics.schema';

/** A metrics snapshot with everything at zero, `at` as given; tests override what they read. */
export function emptyMetrics(at = 0, patch: Partial<MetricsSnapshot> = {}): MetricsSnapshot {
  return {
    at,
    runs: { completed: 0, failed: 0, byStatus: {} },
    running: 0,
    queued: 0,
    rejected: {},
    nodeDuration: { bounds: [0.01, 0.1, 1, 10], cumulative: [0, 0, 0, 0], count: 0, sumSeconds: 0 },
    nodeExecutions: 0,
    nodeRetries: 0,
    edgeDropped: 0,
    checkpoint: { bytes: 0, errors: 0 },
    tracker: { queueDepth: 0, droppedLogs: 0, droppedState: 0, droppedSupervisor: 0 },
    ...patch,
  };
}

/** `metrics.get` for the renderer fake: answers the snapshots the test sets, in turn (the last one repeats). */
export function createFakeMetrics(snapshots: MetricsSnapshot[] = [emptyMetrics()]) {
  const queue = [...snapshots];
  return {
    ops: {
      'metrics.get': vi.fn(async () => (queue.length > 1 ? queue.shift()! : queue[0]!)),
    },
    push(...next: MetricsSnapshot[]) {
      queue.push(...next);
    },
  };
}
