import { type Registry } from 'prom-client';
import { REJECT_REASONS } from '../../shared/api/scheduler.schema';
import type { MetricsSnapshot } from '../../shared/api/metrics.schema';
import type { NodeRunState, RunSummary } from '../../shared/api/runs.schema';
import { isFailure, type Status } from '../../shared/status/status';
import { METER_NAMES as N } from './meter-names';
import { RunMeters } from './run-meters';
import { registerScraped, type MetricsSources } from './scraped-metrics';
import type { TrackerObserver } from './tracker-observer';

export { METER_NAMES } from './meter-names';
export { DURATION_BUCKETS, RunMeters } from './run-meters';
export type { MetricsSources } from './scraped-metrics';

/**
 * The engine's Prometheus registry (OBS-04): the run and node meters the tracker records (`RunMeters`), and
 * the gauges and counters kept elsewhere (refusals, checkpoints, edge drops, dropped events), read at scrape time.
 */
export class EngineMetrics implements TrackerObserver {
  readonly registry: Registry;

  constructor(
    sources: MetricsSources,
    private readonly meters: RunMeters = new RunMeters(),
  ) {
    this.registry = meters.registry;
    registerScraped(sources, [this.registry]);
  }

  runChanged(run: Readonly<RunSummary>, before: Status): void {
    this.meters.runChanged(run, before);
  }

  nodeChanged(run: Readonly<RunSummary>, node: Readonly<NodeRunState>, before: Status): void {
    this.meters.nodeChanged(run, node, before);
  }

  /** Prometheus text exposition (`GET /metrics`). */
  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  /** The studio's view (OBS-04): totals summed over labels, gauges, and node durations as one histogram. */
  async snapshot(now: number): Promise<MetricsSnapshot> {
    const all = await this.registry.getMetricsAsJSON();
    const byName = new Map(all.map((m) => [m.name, m.values]));
    const values = (name: string) => byName.get(name) ?? [];
    const sum = (name: string, where: (labels: Partial<Record<string, string | number>>) => boolean = () => true) =>
      values(name).reduce((acc, v) => (where(v.labels) ? acc + v.value : acc), 0);
    const runsByStatus: Record<string, number> = {};
    for (const v of values(N['yukta.executions.completed'])) {
      const status = String(v.labels.status);
      runsByStatus[status] = (runsByStatus[status] ?? 0) + v.value;
    }
    const failed = Object.entries(runsByStatus).reduce((acc, [status, n]) => (isFailure(status as Status) ? acc + n : acc), 0);
    const rejected = Object.fromEntries(REJECT_REASONS.map((reason) => [reason, sum(N['yukta.executions.rejected'], (l) => l.reason === reason)]));
    const counts = new Map<number, number>();
    for (const v of values(N['yukta.node.duration'])) {
      const metricName = (v as { metricName?: string }).metricName;
      if (metricName !== `${N['yukta.node.duration']}_bucket`) continue;
      const le = v.labels.le === '+Inf' ? Number.POSITIVE_INFINITY : Number(v.labels.le);
      counts.set(le, (counts.get(le) ?? 0) + v.value);
    }
    const bounds = [...counts.keys()].filter((le) => Number.isFinite(le)).sort((a, b) => a - b);
    const nodeSuffix = (suffix: string) =>
      values(N['yukta.node.duration']).reduce(
        (acc, v) => ((v as { metricName?: string }).metricName === `${N['yukta.node.duration']}_${suffix}` ? acc + v.value : acc),
        0,
      );
    return {
      at: now,
      runs: { completed: Object.values(runsByStatus).reduce((a, b) => a + b, 0), failed, byStatus: runsByStatus },
      running: sum(N['yukta.executions.running']),
      queued: sum(N['yukta.executions.queued']),
      rejected,
      nodeDuration: { bounds, cumulative: bounds.map((le) => counts.get(le) ?? 0), count: nodeSuffix('count'), sumSeconds: nodeSuffix('sum') },
      nodeExecutions: sum(N['yukta.node.executions']),
      nodeRetries: sum(N['yukta.node.retries']),
      edgeDropped: sum(N['yukta.edge.dropped']),
      checkpoint: { bytes: sum(N['yukta.checkpoint.bytes']), errors: sum(N['yukta.checkpoint.errors']) },
      tracker: {
        queueDepth: sum(N['yukta.tracker.queue.depth']),
        droppedLogs: sum(N['yukta.tracker.dropped'], (l) => l.type === 'log'),
        droppedState: sum(N['yukta.tracker.dropped'], (l) => l.type === 'state'),
        droppedSupervisor: sum(N['yukta.tracker.dropped'], (l) => l.kind === 'supervisor'),
      },
    };
  }
}
