import { Counter, Gauge, Registry, type Metric, type MetricValueWithName } from 'prom-client';
import { REJECT_REASONS, type RejectReason } from '../../shared/api/scheduler.schema';
import type { MetricsSnapshot } from '../../shared/api/metrics.schema';
import type { NodeRunState, RunSummary } from '../../shared/api/runs.schema';
import { isFailure, isTerminal, type Status } from '../../shared/status/status';
import type { TrackerCounters, TrackerObserver } from './tracker-observer';

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

/** Seconds; from a fast processor to a long wait. */
export const DURATION_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600];

/**
 * The meters of SPEC OBS-04, each named `yukta.*` as in the Java engine and exported with the Prometheus
 * name prom-client requires (dots become `_`, counters end `_total`, durations are `_seconds`).
 */
export const METER_NAMES = {
  'yukta.executions.completed': 'yukta_executions_completed_total',
  'yukta.execution.duration': 'yukta_execution_duration_seconds',
  'yukta.execution.queue.wait': 'yukta_execution_queue_wait_seconds',
  'yukta.executions.running': 'yukta_executions_running',
  'yukta.executions.queued': 'yukta_executions_queued',
  'yukta.executions.rejected': 'yukta_executions_rejected_total',
  'yukta.node.executions': 'yukta_node_executions_total',
  'yukta.node.duration': 'yukta_node_duration_seconds',
  'yukta.node.retries': 'yukta_node_retries_total',
  'yukta.edge.dropped': 'yukta_edge_dropped_total',
  'yukta.checkpoint.bytes': 'yukta_checkpoint_bytes',
  'yukta.checkpoint.errors': 'yukta_checkpoint_errors_total',
  'yukta.tracker.queue.depth': 'yukta_tracker_queue_depth',
  'yukta.tracker.dropped': 'yukta_tracker_dropped_total',
  'yukta.tracker.log.append.failed': 'yukta_tracker_log_append_failed_total',
} as const;

const N = METER_NAMES;
const RUN_LABELS = ['session', 'workflow', 'status'] as const;
const NODE_LABELS = ['session', 'workflow', 'node', 'status'] as const;
/** What one label set has recorded: events counted (a counter) and durations (per bucket, not cumulative). */
interface Tally {
  readonly labels: Readonly<Record<string, string>>;
  events: number;
  buckets: number[];
  sum: number;
  count: number;
}

/**
 * Tallies of the meters recorded per status change, one per label set, found through nested maps of the
 * label values (no label object or hash string per record: prom-client's `inc` + `observe` cost ~2.4 µs per
 * node end, a tenth of a short task). Exported through the prom-client registry when scraped, in
 * first-recorded order.
 */
class Tallies {
  private readonly index = new Map<string, unknown>();
  readonly all: Tally[] = [];

  constructor(private readonly names: readonly string[]) {}

  /** The tally of the label values, given in the order of `names`. */
  get(...values: string[]): Tally {
    let map = this.index;
    const last = values.length - 1;
    for (let i = 0; i < last; i++) {
      let next = map.get(values[i]!) as Map<string, unknown> | undefined;
      if (!next) map.set(values[i]!, (next = new Map()));
      map = next;
    }
    let tally = map.get(values[last]!) as Tally | undefined;
    if (!tally) {
      const labels: Record<string, string> = {};
      this.names.forEach((name, i) => (labels[name] = values[i]!));
      tally = { labels, events: 0, buckets: DURATION_BUCKETS.map(() => 0), sum: 0, count: 0 };
      map.set(values[last]!, tally);
      this.all.push(tally);
    }
    return tally;
  }

  /** As `Histogram.observe`: the first bucket whose bound is ≥ the value (beyond the last: only sum and count). */
  observe(tally: Tally, seconds: number): void {
    let i = 0;
    while (i < DURATION_BUCKETS.length && seconds > DURATION_BUCKETS[i]!) i++;
    if (i < DURATION_BUCKETS.length) tally.buckets[i]!++;
    tally.sum += seconds;
    tally.count++;
  }

  /** A counter of `events` read from the tallies when scraped. */
  counter(name: string, help: string, registers: Registry[]): void {
    const all = this.all;
    new Counter({
      name, help, labelNames: this.names, registers,
      collect() {
        this.reset();
        for (const t of all) if (t.events > 0) this.inc(t.labels, t.events);
      },
    });
  }

  /** A histogram of the durations read from the tallies when scraped. */
  histogram(name: string, help: string, registry: Registry): void {
    // A metric object the registry reads like its own (name, help, type, get/getForPromString).
    registry.registerMetric(new TalliedHistogram(name, help, this) as unknown as Metric);
  }
}

interface ExportedMetric {
  name: string;
  help: string;
  type: 'histogram';
  values: Array<MetricValueWithName<string>>;
  aggregator: 'sum';
}

/** A histogram exported as prom-client's Histogram exports it (same values, labels and order of samples). */
class TalliedHistogram {
  readonly type = 'histogram' as const;
  readonly aggregator = 'sum' as const;

  constructor(
    readonly name: string,
    readonly help: string,
    private readonly tallies: Tallies,
  ) {}

  /** As `Histogram.getForPromString`: each sample keeps its label set apart (`sharedLabels`). */
  getForPromString(): Promise<ExportedMetric> {
    return Promise.resolve(this.build(false));
  }

  /** As `Histogram.get`: the label set merged into each sample's labels. */
  get(): Promise<ExportedMetric> {
    return Promise.resolve(this.build(true));
  }

  /** As `Histogram.reset` (`registry.resetMetrics()`): forgets every duration recorded. */
  reset(): void {
    for (const t of this.tallies.all) {
      t.buckets.fill(0);
      t.sum = 0;
      t.count = 0;
    }
  }

  private build(splay: boolean): ExportedMetric {
    const values: Array<MetricValueWithName<string>> = [];
    const sample = (labels: Record<string, string | number>, value: number, metricName: string, shared: Readonly<Record<string, string>>, exemplar: null | undefined) => {
      const out = splay ? { value, metricName, exemplar, labels: { ...labels, ...shared } } : { labels, sharedLabels: shared, value, metricName, exemplar };
      values.push(out as unknown as MetricValueWithName<string>);
    };
    const bucket = `${this.name}_bucket`;
    for (const t of this.tallies.all) {
      if (t.count === 0) continue;
      let acc = 0;
      for (let i = 0; i < DURATION_BUCKETS.length; i++) {
        acc += t.buckets[i]!;
        sample({ le: DURATION_BUCKETS[i]! }, acc, bucket, t.labels, null);
      }
      sample({ le: '+Inf' }, t.count, bucket, t.labels, null);
      sample({}, t.sum, `${this.name}_sum`, t.labels, undefined);
      sample({}, t.count, `${this.name}_count`, t.labels, undefined);
    }
    return { name: this.name, help: this.help, type: this.type, values, aggregator: this.aggregator };
  }
}

/**
 * One Prometheus registry per engine (never the global one, so engines and tests stay apart). Run and node
 * meters are recorded by the tracker once per status change (a node's duration once, when it ends); gauges
 * and the counters kept elsewhere (refusals, checkpoints, edge drops, dropped events) are read at scrape time.
 */
export class EngineMetrics implements TrackerObserver {
  readonly registry = new Registry();
  /** `yukta.executions.completed` and `yukta.execution.duration`. */
  private readonly runEnds = new Tallies(RUN_LABELS);
  /** `yukta.execution.queue.wait`. */
  private readonly queueWaits = new Tallies(['session', 'workflow']);
  /** `yukta.node.executions` and `yukta.node.duration`. */
  private readonly nodeEnds = new Tallies(NODE_LABELS);
  private readonly nodeRetries: Counter<'session' | 'workflow' | 'node'>;

  constructor(private readonly sources: MetricsSources) {
    const registers = [this.registry];
    this.runEnds.counter(N['yukta.executions.completed'], 'Runs ended, by final status (yukta.executions.completed).', registers);
    this.runEnds.histogram(N['yukta.execution.duration'], 'Run duration from RUNNING to its end (yukta.execution.duration).', this.registry);
    this.queueWaits.histogram(N['yukta.execution.queue.wait'], 'Time a run waited for its slot (yukta.execution.queue.wait).', this.registry);
    this.nodeEnds.counter(N['yukta.node.executions'], 'Node executions at their terminal status (yukta.node.executions).', registers);
    this.nodeEnds.histogram(N['yukta.node.duration'], 'Node duration from RUNNING to its end (yukta.node.duration).', this.registry);
    this.nodeRetries = new Counter({ name: N['yukta.node.retries'], help: 'Attempts retried, counted when the node ends (yukta.node.retries).', labelNames: ['session', 'workflow', 'node'], registers });
    this.registerScraped(registers);
  }

  /** Gauges and counters read from their owners when scraped. */
  private registerScraped(registers: Registry[]): void {
    const s = this.sources;
    new Gauge({ name: N['yukta.executions.running'], help: 'Runs holding a slot (yukta.executions.running).', registers, collect() { this.set(s.scheduler().running); } });
    new Gauge({ name: N['yukta.executions.queued'], help: 'Starts waiting for a slot (yukta.executions.queued).', registers, collect() { this.set(s.scheduler().queued); } });
    new Counter({
      name: N['yukta.executions.rejected'], help: 'Starts refused, by reason (yukta.executions.rejected).', labelNames: ['reason'], registers,
      collect() {
        const rejected = s.scheduler().rejected;
        this.reset();
        for (const reason of REJECT_REASONS) this.inc({ reason }, rejected[reason]);
      },
    });
    new Gauge({ name: N['yukta.checkpoint.bytes'], help: 'Bytes of checkpointed node output held by the checkpoint store (yukta.checkpoint.bytes).', registers, collect() { this.set(s.checkpoints().bytes); } });
    new Counter({ name: N['yukta.checkpoint.errors'], help: 'Checkpoint end markers that failed to be written (yukta.checkpoint.errors).', registers, collect() { this.reset(); this.inc(s.checkpoints().errors); } });
    new Counter({
      name: N['yukta.edge.dropped'], help: 'Messages dropped by edge buffers (DROP_OLDEST/DROP_NEWEST), by workflow and node (yukta.edge.dropped).', labelNames: ['workflow', 'node'], registers,
      collect() {
        this.reset();
        for (const [key, count] of s.edgeDrops()) {
          const slash = key.indexOf('/');
          this.inc({ workflow: key.slice(0, slash), node: key.slice(slash + 1) }, count);
        }
      },
    });
    new Gauge({ name: N['yukta.tracker.queue.depth'], help: 'Events waiting for the tracker (yukta.tracker.queue.depth).', registers, collect() { this.set(s.tracker().queueDepth); } });
    new Counter({
      name: N['yukta.tracker.dropped'], help: 'Events dropped: log lines (type=log), events after the tracker closed (type=state), supervisor buffers (kind=supervisor) (yukta.tracker.dropped).', labelNames: ['type', 'kind'], registers,
      collect() {
        const t = s.tracker();
        this.reset();
        this.inc({ type: 'log' }, t.droppedLogs);
        this.inc({ type: 'state' }, t.droppedState);
        this.inc({ kind: 'supervisor' }, s.supervisorDrops());
      },
    });
    new Counter({
      name: N['yukta.tracker.log.append.failed'], help: 'Log lines that failed to be stored (yukta.tracker.log.append.failed).', labelNames: ['type'], registers,
      collect() {
        const f = s.tracker().logAppendFailed;
        this.reset();
        this.inc({ type: 'node' }, f.node);
        this.inc({ type: 'run' }, f.run);
      },
    });
  }

  runChanged(run: Readonly<RunSummary>, before: Status): void {
    const status = run.status;
    if (status === 'RUNNING' && run.startedAt !== undefined) {
      this.queueWaits.observe(this.queueWaits.get(run.session, run.workflowId), Math.max(0, run.startedAt - run.createdAt) / 1000);
      return;
    }
    if (!isTerminal(status) || isTerminal(before)) return;
    const tally = this.runEnds.get(run.session, run.workflowId, status);
    tally.events++;
    if (run.startedAt !== undefined && run.endedAt !== undefined) this.runEnds.observe(tally, Math.max(0, run.endedAt - run.startedAt) / 1000);
  }

  nodeChanged(run: Readonly<RunSummary>, node: Readonly<NodeRunState>, before: Status): void {
    const status = node.status;
    if (!isTerminal(status) || isTerminal(before)) return;
    const tally = this.nodeEnds.get(run.session, run.workflowId, node.nodeId, status);
    tally.events++;
    if (node.startedAt !== undefined && node.endedAt !== undefined) this.nodeEnds.observe(tally, Math.max(0, node.endedAt - node.startedAt) / 1000);
    const retried = node.counts.retried ?? 0;
    if (retried > 0) this.nodeRetries.inc({ session: run.session, workflow: run.workflowId, node: node.nodeId }, retried);
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
      values(N['yukta.node.duration']).reduce((acc, v) => ((v as { metricName?: string }).metricName === `${N['yukta.node.duration']}_${suffix}` ? acc + v.value : acc), 0);
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
