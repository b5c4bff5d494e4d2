import type { MetricsSnapshot } from '../../../shared/api/metrics.schema';

/** Points kept per chart: two minutes at one read a second. */
export const MAX_POINTS = 120;

/** One point of the charts, from two consecutive snapshots. */
export interface MetricsPoint {
  /** Seconds (uPlot's time axis). */
  t: number;
  runsPerSecond: number;
  /** Runs that ended failed since the previous read. */
  failures: number;
  queued: number;
  running: number;
  /** p95 of the node durations observed since the previous read (seconds), or null when none ended. */
  p95Seconds: number | null;
}

export interface MetricsSeries {
  last: MetricsSnapshot | null;
  points: MetricsPoint[];
}

export const EMPTY_SERIES: MetricsSeries = { last: null, points: [] };

/**
 * A quantile from cumulative histogram buckets, interpolated inside its bucket like Prometheus's
 * `histogram_quantile`; observations beyond the last bound answer that bound. Null without observations.
 */
export function quantile(q: number, bounds: readonly number[], cumulative: readonly number[], count: number): number | null {
  if (count <= 0) return null;
  const rank = q * count;
  let below = 0;
  for (let i = 0; i < bounds.length; i++) {
    const c = cumulative[i] ?? 0;
    if (c >= rank) {
      const lower = i === 0 ? 0 : bounds[i - 1]!;
      const inBucket = c - below;
      return inBucket <= 0 ? bounds[i]! : lower + (bounds[i]! - lower) * ((rank - below) / inBucket);
    }
    below = c;
  }
  return bounds.length ? bounds[bounds.length - 1]! : null;
}

/** p95 of every node duration so far. */
export function overallP95(s: MetricsSnapshot): number | null {
  return quantile(0.95, s.nodeDuration.bounds, s.nodeDuration.cumulative, s.nodeDuration.count);
}

/** Adds a snapshot: the first one only sets the baseline; each later one adds a point (oldest dropped past MAX_POINTS). */
export function addSnapshot(series: MetricsSeries, next: MetricsSnapshot): MetricsSeries {
  const prev = series.last;
  if (!prev || next.at <= prev.at) return { last: next, points: series.points };
  const seconds = (next.at - prev.at) / 1000;
  const sameBounds = prev.nodeDuration.bounds.length === next.nodeDuration.bounds.length;
  const delta = sameBounds ? next.nodeDuration.cumulative.map((c, i) => c - (prev.nodeDuration.cumulative[i] ?? 0)) : next.nodeDuration.cumulative;
  const deltaCount = sameBounds ? next.nodeDuration.count - prev.nodeDuration.count : next.nodeDuration.count;
  const point: MetricsPoint = {
    t: next.at / 1000,
    runsPerSecond: Math.max(0, next.runs.completed - prev.runs.completed) / seconds,
    failures: Math.max(0, next.runs.failed - prev.runs.failed),
    queued: next.queued,
    running: next.running,
    p95Seconds: quantile(0.95, next.nodeDuration.bounds, delta, deltaCount),
  };
  const points = [...series.points, point];
  if (points.length > MAX_POINTS) points.splice(0, points.length - MAX_POINTS);
  return { last: next, points };
}

/** `850 ms`, `1.50 s`, `—` for none. */
export function formatSeconds(seconds: number | null): string {
  if (seconds === null) return '—';
  if (seconds < 1) return `${Math.round(seconds * 1000)} ms`;
  return `${seconds.toFixed(2)} s`;
}

export function formatRate(perSecond: number | null): string {
  if (perSecond === null) return '—';
  return perSecond >= 10 ? perSecond.toFixed(0) : perSecond.toFixed(2);
}
