import { z } from 'zod';

const Count = z.number().min(0);

/**
 * The engine's meters as the studio reads them (`metrics.get`, OBS-04): cumulative totals summed over their
 * labels and current gauges. Rates (runs per second) and recent percentiles come from two snapshots.
 */
export const MetricsSnapshot = z.object({
  /** Engine clock, epoch milliseconds. */
  at: z.number(),
  /** `yukta.executions.completed`: runs ended, in total, failed (FAILURE, ERROR, TIMED_OUT, CANCELLED, UPSTREAM_FAILED, ABORTED) and by status. */
  runs: z.object({ completed: Count, failed: Count, byStatus: z.record(z.string(), Count) }),
  /** `yukta.executions.running`, `yukta.executions.queued`. */
  running: Count,
  queued: Count,
  /** `yukta.executions.rejected` by reason. */
  rejected: z.record(z.string(), Count),
  /** `yukta.node.duration` over every node: bucket upper bounds (seconds) with cumulative counts, the count and sum. */
  nodeDuration: z.object({ bounds: z.array(z.number()), cumulative: z.array(Count), count: Count, sumSeconds: Count }),
  /** `yukta.node.executions`, `yukta.node.retries`, `yukta.edge.dropped`. */
  nodeExecutions: Count,
  nodeRetries: Count,
  edgeDropped: Count,
  /** `yukta.checkpoint.bytes`, `yukta.checkpoint.errors`. */
  checkpoint: z.object({ bytes: Count, errors: Count }),
  /** `yukta.tracker.queue.depth` and `yukta.tracker.dropped` by type/kind. */
  tracker: z.object({ queueDepth: Count, droppedLogs: Count, droppedState: Count, droppedSupervisor: Count }),
});
export type MetricsSnapshot = z.infer<typeof MetricsSnapshot>;

/** Where Prometheus scrapes the same meters in serve mode (text exposition format). */
export const METRICS_HTTP_PATH = '/metrics';
