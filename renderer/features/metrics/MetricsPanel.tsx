import { Activity } from 'lucide-react';
import { useMemo } from 'react';
import type { MetricsSnapshot } from '../../../shared/api/metrics.schema';
import { useApi } from '../../api/api-context';
import type { FrameScheduler } from '../../api/event-coalescer';
import { MetricsChart } from './MetricsChart';
import './metrics.css';
import { formatRate, formatSeconds, overallP95, type MetricsPoint } from './metrics-series';
import { useMetricsFeed, type Ticker } from './use-metrics-feed';

const BLUE = '#2f6fe0';
const RED = '#c93434';
const SLATE = '#64748b';
const GREEN = '#2e9e5b';

/**
 * Metrics tab (OBS-04): runs per second, queue depth, failures and p95 node duration as tiles and live
 * charts (uPlot), from `metrics.get` — the same meters Prometheus scrapes at `GET /metrics`.
 */
export function MetricsPanel({ ticker, schedule }: { ticker?: Ticker; schedule?: FrameScheduler }) {
  const api = useApi();
  const { series, error } = useMetricsFeed(api, ticker, schedule);
  const last = series.last;
  const points = series.points;
  const latest = points.at(-1) ?? null;
  const charts = useMemo(() => chartData(points), [points]);

  return (
    <div className="metrics-panel" data-testid="metrics-panel">
      {error && (
        <div className="banner banner-run-error" role="alert" data-testid="metrics-error">
          {error}
        </div>
      )}
      {!last ? (
        <p className="empty-hint">Reading the metrics…</p>
      ) : (
        <>
          <Tiles last={last} latest={latest} />
          {points.length === 0 ? (
            <p className="empty-hint" data-testid="metrics-charts-waiting">
              The charts start with the next reading (one a second while this tab is open).
            </p>
          ) : (
            <div className="metrics-charts">
              <MetricsChart
                testId="metrics-chart-runs"
                title="Runs per second"
                xs={charts.xs}
                lines={[
                  { label: 'runs/s', color: BLUE, values: charts.rate },
                  { label: 'failed', color: RED, values: charts.failures },
                ]}
              />
              <MetricsChart
                testId="metrics-chart-queue"
                title="Queue depth and running"
                xs={charts.xs}
                lines={[
                  { label: 'queued', color: SLATE, values: charts.queued },
                  { label: 'running', color: GREEN, values: charts.running },
                ]}
              />
              <MetricsChart
                testId="metrics-chart-p95"
                title="p95 node duration (ms)"
                xs={charts.xs}
                lines={[{ label: 'p95 ms', color: BLUE, values: charts.p95 }]}
              />
            </div>
          )}
        </>
      )}
    </div>
  );
}

function chartData(points: readonly MetricsPoint[]) {
  return {
    xs: points.map((p) => p.t),
    rate: points.map((p) => p.runsPerSecond),
    failures: points.map((p) => p.failures),
    queued: points.map((p) => p.queued),
    running: points.map((p) => p.running),
    p95: points.map((p) => (p.p95Seconds === null ? null : p.p95Seconds * 1000)),
  };
}

function Tile({ label, value, title, testId, tone }: { label: string; value: string; title: string; testId: string; tone?: 'error' }) {
  return (
    <div className={`metrics-tile${tone ? ` is-${tone}` : ''}`} title={title}>
      <span className="metrics-tile-label">{label}</span>
      <strong className="metrics-tile-value" data-testid={testId}>
        {value}
      </strong>
    </div>
  );
}

function Tiles({ last, latest }: { last: MetricsSnapshot; latest: MetricsPoint | null }) {
  const refused = Object.values(last.rejected).reduce((a, b) => a + b, 0);
  const dropped = last.edgeDropped + last.tracker.droppedLogs + last.tracker.droppedSupervisor;
  return (
    <div className="metrics-tiles" data-testid="metrics-tiles">
      <Activity size={15} aria-hidden="true" />
      <Tile
        label="Runs/s"
        value={formatRate(latest?.runsPerSecond ?? null)}
        title="Runs ended per second since the last reading (yukta.executions.completed)"
        testId="metrics-runs-rate"
      />
      <Tile
        label="Runs ended"
        value={String(last.runs.completed)}
        title="Runs ended since the engine started, any status (yukta.executions.completed)"
        testId="metrics-runs-completed"
      />
      <Tile
        label="Failed"
        value={String(last.runs.failed)}
        title="Runs that ended FAILURE, ERROR, TIMED_OUT, CANCELLED, UPSTREAM_FAILED or ABORTED"
        testId="metrics-runs-failed"
        tone={last.runs.failed > 0 ? 'error' : undefined}
      />
      <Tile label="Queued" value={String(last.queued)} title="Starts waiting for a slot (yukta.executions.queued)" testId="metrics-queued" />
      <Tile label="Running" value={String(last.running)} title="Runs holding a slot (yukta.executions.running)" testId="metrics-running" />
      <Tile
        label="p95 node"
        value={formatSeconds(overallP95(last))}
        title="95th percentile of node durations since the engine started (yukta.node.duration)"
        testId="metrics-p95"
      />
      <Tile label="Refused" value={String(refused)} title="Starts refused (yukta.executions.rejected)" testId="metrics-refused" />
      <Tile
        label="Dropped"
        value={String(dropped)}
        title="Edge buffer drops, log lines and supervisor events dropped (yukta.edge.dropped, yukta.tracker.dropped)"
        testId="metrics-dropped"
      />
    </div>
  );
}
