import { Counter, Gauge, type Registry } from 'prom-client';
import { REJECT_REASONS, type RejectReason } from '../../shared/api/scheduler.schema';
import { METER_NAMES as N } from './meter-names';
import type { TrackerCounters } from './tracker-observer';

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

type Labels = Record<string, string>;

/** A gauge set to one value, or a counter reset and then increased by a total (or one total per label set). */
type ScrapedSpec = { name: string; help: string } & (
  { kind: 'gauge'; read(s: MetricsSources): number } | { kind: 'counter'; labelNames?: string[]; read(s: MetricsSources): number | Array<[Labels, number]> }
);

function edgeDropTotals(drops: ReadonlyMap<string, number>): Array<[Labels, number]> {
  const totals: Array<[Labels, number]> = [];
  for (const [key, count] of drops) {
    const slash = key.indexOf('/');
    totals.push([{ workflow: key.slice(0, slash), node: key.slice(slash + 1) }, count]);
  }
  return totals;
}

/** The scraped gauges and counters, in the order they are registered (and exposed). */
const SCRAPED: readonly ScrapedSpec[] = [
  { kind: 'gauge', name: N['yukta.executions.running'], help: 'Runs holding a slot (yukta.executions.running).', read: (s) => s.scheduler().running },
  { kind: 'gauge', name: N['yukta.executions.queued'], help: 'Starts waiting for a slot (yukta.executions.queued).', read: (s) => s.scheduler().queued },
  {
    kind: 'counter',
    name: N['yukta.executions.rejected'],
    help: 'Starts refused, by reason (yukta.executions.rejected).',
    labelNames: ['reason'],
    read: (s) => {
      const rejected = s.scheduler().rejected;
      return REJECT_REASONS.map((reason): [Labels, number] => [{ reason }, rejected[reason]]);
    },
  },
  {
    kind: 'gauge',
    name: N['yukta.checkpoint.bytes'],
    help: 'Bytes of checkpointed node output held by the checkpoint store (yukta.checkpoint.bytes).',
    read: (s) => s.checkpoints().bytes,
  },
  {
    kind: 'counter',
    name: N['yukta.checkpoint.errors'],
    help: 'Checkpoint end markers that failed to be written (yukta.checkpoint.errors).',
    read: (s) => s.checkpoints().errors,
  },
  {
    kind: 'counter',
    name: N['yukta.edge.dropped'],
    help: 'Messages dropped by edge buffers (DROP_OLDEST/DROP_NEWEST), by workflow and node (yukta.edge.dropped).',
    labelNames: ['workflow', 'node'],
    read: (s) => edgeDropTotals(s.edgeDrops()),
  },
  {
    kind: 'gauge',
    name: N['yukta.tracker.queue.depth'],
    help: 'Events waiting for the tracker (yukta.tracker.queue.depth).',
    read: (s) => s.tracker().queueDepth,
  },
  {
    kind: 'counter',
    name: N['yukta.tracker.dropped'],
    help: 'Events dropped: log lines (type=log), events after the tracker closed (type=state), supervisor buffers (kind=supervisor) (yukta.tracker.dropped).',
    labelNames: ['type', 'kind'],
    read: (s) => {
      const t = s.tracker();
      return [
        [{ type: 'log' }, t.droppedLogs],
        [{ type: 'state' }, t.droppedState],
        [{ kind: 'supervisor' }, s.supervisorDrops()],
      ];
    },
  },
  {
    kind: 'counter',
    name: N['yukta.tracker.log.append.failed'],
    help: 'Log lines that failed to be stored (yukta.tracker.log.append.failed).',
    labelNames: ['type'],
    read: (s) => {
      const f = s.tracker().logAppendFailed;
      return [
        [{ type: 'node' }, f.node],
        [{ type: 'run' }, f.run],
      ];
    },
  },
];

function register(spec: ScrapedSpec, s: MetricsSources, registers: Registry[]): void {
  if (spec.kind === 'gauge') {
    const { read } = spec;
    new Gauge({
      name: spec.name,
      help: spec.help,
      registers,
      collect() {
        this.set(read(s));
      },
    });
    return;
  }
  const { read } = spec;
  new Counter({
    name: spec.name,
    help: spec.help,
    ...(spec.labelNames ? { labelNames: spec.labelNames } : {}),
    registers,
    collect() {
      const totals = read(s);
      this.reset();
      if (typeof totals === 'number') this.inc(totals);
      else for (const [labels, n] of totals) this.inc(labels, n);
    },
  });
}

/** Gauges and counters read from their owners when scraped (OBS-04). */
export function registerScraped(sources: MetricsSources, registers: Registry[]): void {
  for (const spec of SCRAPED) register(spec, sources, registers);
}
