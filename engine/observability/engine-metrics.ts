import { Counter, Gauge, type Registry } from 'prom-client';
import { REJECT_REASONS, type RejectReason } from '../../shared/api/scheduler.schema';
import type { MetricsSnapshot } from '../../shared/api/metrics.schema';
import type { NodeRunState, RunSummary } from '../../shared/api/runs.schema';
import { isFailure, type Status } from '../../shared/status/status';
import { METER_NAMES as N } from './meter-names';
import { RunMeters } from './run-meters';
import type { TrackerCounters, TrackerObserver } from './tracker-observer';

export { METER_NAMES } from './meter-names';
export { DURATION_BUCKETS, RunMeters } from './run-meters';

/** What the metrics read when scraped (pull: nothing here is called per message). */
export interface MetricsSources {
  tracker(): TrackerCounters;
  scheduler(): { running: number; queued: number; rejected: Record<RejectReason, number> };
  checkpoints(): { bytes: number; errors: number };
  /** Messages dropped by edge buffers, keyed `workflowId/nodeId`. */
  edgeDrops(): ReadonlyMap<string, number>;
  /** Events dropped by supervisors' buffers. */
  supervisorDrops(): number;
}

/**
 * The engine's Prometheus registry (OBS-04): the run and node meters the tracker records (`RunMeters`), and
 * the gauges and counters kept elsewhere (refusals, checkpoints, edge drops, dropped events), read at scrape time.
 */
export class EngineMetrics implements TrackerObserver {
  readonly registry: Registry;

  constructor(
    private readonly sources: MetricsSources,
    private readonly meters: RunMeters = new RunMeters(),
  ) {
    this.registry = meters.registry;
    this.registerScraped([this.registry]);
  }

  runChanged(run: Readonly<RunSummary>, before: Status): void {
    this.meters.runChanged(run, before);
  }

  nodeChanged(run: Readonly<RunSummary>, node: Readonly<NodeRunState>, before: Status): void {
    this.meters.nodeChanged(run, node, before);
  }

  /** Gauges and counters read from their owners when scraped. */
  private registerScraped(registers: Registry[]): void {
    const s = this.sources;
    new Gauge({
      name: N['yukta.executions.running'],
      help: 'Runs holding a slot (yukta.executions.running).',
      registers,
      collect() {
        this.set(s.scheduler().running);
      },
    });
    new Gauge({
      name: N['yukta.executions.queued'],
      help: 'Starts waiting for a slot (yukta.executions.queued).',
      registers,
      collect() {
        this.set(s.scheduler().queued);
      },
    });
    new Counter({
      name: N['yukta.executions.rejected'],
      help: 'Starts refused, by reason (yukta.executions.rejected).',
      labelNames: ['reason'],
      registers,
      collect() {
        const rejected = s.scheduler().rejected;
        this.reset();
        for (const reason of REJECT_REASONS) this.inc({ reason }, rejected[reason]);
      },
    });
    new Gauge({
      name: N['yukta.checkpoint.bytes'],
      help: 'Bytes of checkpointed node output held by the checkpoint store (yukta.checkpoint.bytes).',
      registers,
      collect() {
        this.set(s.checkpoints().bytes);
      },
    });
    new Counter({
      name: N['yukta.checkpoint.errors'],
      help: 'Checkpoint end markers that failed to be written (yukta.checkpoint.errors).',
      registers,
      collect() {
        this.reset();
        this.inc(s.checkpoints().errors);
      },
    });
    new Counter({
      name: N['yukta.edge.dropped'],
      help: 'Messages dropped by edge buffers (DROP_OLDEST/DROP_NEWEST), by workflow and node (yukta.edge.dropped).',
      labelNames: ['workflow', 'node'],
      registers,
      collect() {
        this.reset();
        for (const [key, count] of s.edgeDrops()) {
          const slash = key.indexOf('/');
          this.inc({ workflow: key.slice(0, slash), node: key.slice(slash + 1) }, count);
        }
      },
    });
    new Gauge({
      name: N['yukta.tracker.queue.depth'],
      help: 'Events waiting for the tracker (yukta.tracker.queue.depth).',
      registers,
      collect() {
        this.set(s.tracker().queueDepth);
      },
    });
    new Counter({
      name: N['yukta.tracker.dropped'],
      help: 'Events dropped: log lines (type=log), events after the tracker closed (type=state), supervisor buffers (kind=supervisor) (yukta.tracker.dropped).',
      labelNames: ['type', 'kind'],
      registers,
      collect() {
        const t = s.tracker();
        this.reset();
        this.inc({ type: 'log' }, t.droppedLogs);
        this.inc({ type: 'state' }, t.droppedState);
        this.inc({ kind: 'supervisor' }, s.supervisorDrops());
      },
    });
    new Counter({
      name: N['yukta.tracker.log.append.failed'],
      help: 'Log lines that failed to be stored (yukta.tracker.log.append.failed).',
      labelNames: ['type'],
      registers,
      collect() {
        const f = s.tracker().logAppendFailed;
        this.reset();
        this.inc({ type: 'node' }, f.node);
        this.inc({ type: 'run' }, f.run);
      },
    });
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
