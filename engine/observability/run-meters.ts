import { Counter, Registry, type Metric, type MetricValueWithName } from 'prom-client';
import type { NodeRunState, RunSummary } from '../../shared/api/runs.schema';
import { isTerminal, type Status } from '../../shared/status/status';
import { METER_NAMES as N } from './meter-names';
import type { TrackerObserver } from './tracker-observer';

/** Seconds; from a fast processor to a long wait. */
export const DURATION_BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600];

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
  /** The maps under the last session and workflow asked for: a run's nodes all end under the same two. */
  private lastSession: string | null = null;
  private lastWorkflow: string | null = null;
  private lastUnder: Map<string, unknown> | null = null;

  constructor(private readonly names: readonly string[]) {}

  /** The tally of a session, a workflow and up to two more label values, given in the order of `names`. */
  get(session: string, workflow: string, third?: string, fourth?: string): Tally {
    if (third === undefined) {
      const bySession = child(this.index, session);
      return (bySession.get(workflow) as Tally | undefined) ?? this.create(bySession, workflow, [session, workflow]);
    }
    const byWorkflow = this.workflowMap(session, workflow);
    if (fourth === undefined) return (byWorkflow.get(third) as Tally | undefined) ?? this.create(byWorkflow, third, [session, workflow, third]);
    const byThird = child(byWorkflow, third);
    return (byThird.get(fourth) as Tally | undefined) ?? this.create(byThird, fourth, [session, workflow, third, fourth]);
  }

  private workflowMap(session: string, workflow: string): Map<string, unknown> {
    if (this.lastUnder !== null && session === this.lastSession && workflow === this.lastWorkflow) return this.lastUnder;
    this.lastSession = session;
    this.lastWorkflow = workflow;
    return (this.lastUnder = child(child(this.index, session), workflow));
  }

  private create(map: Map<string, unknown>, key: string, values: readonly string[]): Tally {
    const labels: Record<string, string> = {};
    this.names.forEach((name, i) => (labels[name] = values[i]!));
    const tally: Tally = { labels, events: 0, buckets: DURATION_BUCKETS.map(() => 0), sum: 0, count: 0 };
    map.set(key, tally);
    this.all.push(tally);
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
      name,
      help,
      labelNames: this.names,
      registers,
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
    const sample = (
      labels: Record<string, string | number>,
      value: number,
      metricName: string,
      shared: Readonly<Record<string, string>>,
      exemplar: null | undefined,
    ) => {
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

function child(map: Map<string, unknown>, key: string): Map<string, unknown> {
  let next = map.get(key) as Map<string, unknown> | undefined;
  if (!next) map.set(key, (next = new Map()));
  return next;
}

/**
 * The run and node meters of OBS-04, recorded by the tracker once per status change (a node's duration once,
 * when it ends), in a registry of their own that the engine's metrics then complete (never the global one,
 * so engines and tests stay apart). Built before the tracker, which reports to it.
 */
export class RunMeters implements TrackerObserver {
  readonly registry = new Registry();
  /** `yukta.executions.completed` and `yukta.execution.duration`. */
  private readonly runEnds = new Tallies(RUN_LABELS);
  /** `yukta.execution.queue.wait`. */
  private readonly queueWaits = new Tallies(['session', 'workflow']);
  /** `yukta.node.executions` and `yukta.node.duration`. */
  private readonly nodeEnds = new Tallies(NODE_LABELS);
  private readonly nodeRetries: Counter<'session' | 'workflow' | 'node'>;

  constructor() {
    const registers = [this.registry];
    this.runEnds.counter(N['yukta.executions.completed'], 'Runs ended, by final status (yukta.executions.completed).', registers);
    this.runEnds.histogram(N['yukta.execution.duration'], 'Run duration from RUNNING to its end (yukta.execution.duration).', this.registry);
    this.queueWaits.histogram(N['yukta.execution.queue.wait'], 'Time a run waited for its slot (yukta.execution.queue.wait).', this.registry);
    this.nodeEnds.counter(N['yukta.node.executions'], 'Node executions at their terminal status (yukta.node.executions).', registers);
    this.nodeEnds.histogram(N['yukta.node.duration'], 'Node duration from RUNNING to its end (yukta.node.duration).', this.registry);
    this.nodeRetries = new Counter({
      name: N['yukta.node.retries'],
      help: 'Attempts retried, counted when the node ends (yukta.node.retries).',
      labelNames: ['session', 'workflow', 'node'],
      registers,
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
}
