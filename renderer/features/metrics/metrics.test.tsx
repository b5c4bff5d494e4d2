// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { StudioClient } from '../../../shared/api/client';
import type { MetricsSnapshot } from '../../../shared/api/metrics.schema';
import type { StudioEvent } from '../../../shared/events/events';
import { ApiProvider } from '../../api/api-context';
import { emptyMetrics } from '../../test-support/fake-metrics';
import { openStudio } from '../../test-support/open-app';
import { manualFrames } from '../../test-support/reset-stores';
import { addSnapshot, EMPTY_SERIES, quantile } from './metrics-series';
import { MetricsPanel } from './MetricsPanel';

/** uPlot needs a real canvas; the stand-in records what each chart was given. */
const charts = vi.hoisted(() => [] as Array<{ labels: string[]; data: unknown[][] }>);
vi.mock('uplot', () => ({
  default: class {
    private readonly entry: { labels: string[]; data: unknown[][] };
    constructor(opts: { series: Array<{ label?: string }> }, data: unknown[][]) {
      this.entry = { labels: opts.series.slice(1).map((s) => s.label ?? ''), data };
      charts.push(this.entry);
    }
    setData(data: unknown[][]) {
      this.entry.data = data;
    }
    setSize() {}
    destroy() {}
  },
}));

afterEach(() => {
  cleanup();
  charts.length = 0;
});

/** Node durations: 100 observations, 90 under 10 ms, 10 between 0.1 s and 1 s. */
function snapshot(at: number, completed: number, failed: number, queued: number, durations = { le10ms: 90, le100ms: 90, le1s: 100 }): MetricsSnapshot {
  return emptyMetrics(at, {
    runs: { completed, failed, byStatus: { SUCCESS: completed - failed, FAILURE: failed } },
    queued,
    running: 1,
    nodeDuration: {
      bounds: [0.01, 0.1, 1, 10],
      cumulative: [durations.le10ms, durations.le100ms, durations.le1s, durations.le1s],
      count: durations.le1s,
      sumSeconds: 5,
    },
  });
}

function manualTicker() {
  let tick: (() => void) | null = null;
  return { ticker: (fn: () => void) => ((tick = fn), () => (tick = null)), tick: () => tick?.(), running: () => tick !== null };
}

function fakeClient(answers: MetricsSnapshot[]) {
  const listeners = new Set<(batch: StudioEvent[]) => void>();
  const get = vi.fn(async () => (answers.length > 1 ? answers.shift()! : answers[0]!));
  const client = {
    'metrics.get': get,
    subscribe: (_filter: unknown, listener: (batch: StudioEvent[]) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  } as unknown as StudioClient;
  return { client, get, emit: (batch: StudioEvent[]) => listeners.forEach((l) => l(batch)), listeners };
}

const ended: StudioEvent = {
  type: 'EXECUTION_STATUS',
  seq: 9,
  executionId: 'r1',
  at: 1,
  session: 'default',
  workflowId: 'hello',
  definitionVersion: 'v',
  status: 'SUCCESS',
};

describe('OBS-04 metrics view', () => {
  it('shows runs ended, runs/s, failures, queue depth and p95 node duration, refreshed every tick', async () => {
    const t = manualTicker();
    const frames = manualFrames();
    const fake = fakeClient([snapshot(10_000, 4, 0, 0), snapshot(12_000, 10, 1, 3)]);
    render(
      <ApiProvider client={fake.client}>
        <MetricsPanel ticker={t.ticker} schedule={frames.schedule} />
      </ApiProvider>,
    );
    expect((await screen.findByTestId('metrics-runs-completed')).textContent).toBe('4');
    expect(screen.getByTestId('metrics-runs-rate').textContent).toBe('—'); // one reading: no rate yet
    expect(screen.getByTestId('metrics-charts-waiting')).toBeTruthy();
    await act(async () => t.tick());
    expect(screen.getByTestId('metrics-runs-completed').textContent).toBe('10');
    expect(screen.getByTestId('metrics-runs-rate').textContent).toBe('3.00'); // 6 runs in 2 s
    expect(screen.getByTestId('metrics-runs-failed').textContent).toBe('1');
    expect(screen.getByTestId('metrics-queued').textContent).toBe('3');
    expect(screen.getByTestId('metrics-p95').textContent).toBe('550 ms'); // rank 95 of 100: halfway into 0.1–1 s
    const runsChart = charts.find((c) => c.labels.includes('runs/s'))!;
    expect(runsChart.data).toEqual([[12], [3], [1]]);
    expect(charts.find((c) => c.labels.includes('queued'))!.data).toEqual([[12], [3], [1]]);
  });

  it('reads again when a run ends (once per frame), stops reading when closed', async () => {
    const t = manualTicker();
    const frames = manualFrames();
    const fake = fakeClient([snapshot(1000, 0, 0, 0), snapshot(1500, 1, 0, 0)]);
    const view = render(
      <ApiProvider client={fake.client}>
        <MetricsPanel ticker={t.ticker} schedule={frames.schedule} />
      </ApiProvider>,
    );
    await screen.findByTestId('metrics-runs-completed');
    expect(fake.get).toHaveBeenCalledTimes(1);
    act(() => {
      fake.emit([ended]);
      fake.emit([{ ...ended, executionId: 'r2' }]);
    });
    await act(async () => frames.frame());
    expect(fake.get).toHaveBeenCalledTimes(2);
    expect(screen.getByTestId('metrics-runs-completed').textContent).toBe('1');
    view.unmount();
    expect(t.running()).toBe(false);
    expect(fake.listeners.size).toBe(0);
  });

  it('says why when the meters cannot be read', async () => {
    const client = { 'metrics.get': vi.fn(async () => Promise.reject(new Error('host gone'))), subscribe: () => () => undefined } as unknown as StudioClient;
    render(
      <ApiProvider client={client}>
        <MetricsPanel ticker={manualTicker().ticker} />
      </ApiProvider>,
    );
    expect((await screen.findByTestId('metrics-error')).textContent).toContain('host gone');
  });

  it('is a tab of the bottom panel', async () => {
    await openStudio('#/w/default/hello');
    fireEvent.mouseDown(screen.getByTestId('metrics-tab'), { button: 0 });
    expect((await screen.findByTestId('metrics-runs-completed')).textContent).toBe('0');
  });
});

describe('OBS-04 metrics series', () => {
  it('interpolates quantiles like histogram_quantile and answers the last bound beyond it', () => {
    expect(quantile(0.5, [1, 2], [10, 20], 20)).toBe(1);
    expect(quantile(0.75, [1, 2], [10, 20], 20)).toBe(1.5);
    expect(quantile(0.95, [1, 2], [10, 10], 20)).toBe(2);
    expect(quantile(0.95, [1, 2], [0, 0], 0)).toBeNull();
  });

  it('the p95 of a point covers only the nodes that ended since the previous reading', () => {
    let s = addSnapshot(EMPTY_SERIES, snapshot(1000, 0, 0, 0, { le10ms: 100, le100ms: 100, le1s: 100 }));
    s = addSnapshot(s, snapshot(2000, 0, 0, 0, { le10ms: 100, le100ms: 100, le1s: 110 }));
    expect(s.points[0]!.p95Seconds).toBeCloseTo(0.955); // 10 new, all in 0.1–1 s
    s = addSnapshot(s, snapshot(3000, 0, 0, 0, { le10ms: 100, le100ms: 100, le1s: 110 }));
    expect(s.points[1]!.p95Seconds).toBeNull();
  });
});
