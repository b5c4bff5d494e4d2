import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';

export interface ChartLine {
  label: string;
  color: string;
  values: ReadonlyArray<number | null>;
}

const HEIGHT = 110;

/** A small uPlot time-series chart (UI.md: charts with uPlot); redrawn with new data, never rebuilt per point. */
export function MetricsChart({ title, xs, lines, testId }: { title: string; xs: readonly number[]; lines: ChartLine[]; testId: string }) {
  const host = useRef<HTMLDivElement | null>(null);
  const plot = useRef<uPlot | null>(null);
  const labels = lines.map((l) => `${l.label}:${l.color}`).join('|');

  useEffect(() => {
    const el = host.current;
    if (!el) return;
    const width = Math.max(220, el.clientWidth || 320);
    const series = lines.map((l) => ({ label: l.label, stroke: l.color, width: 1.5, spanGaps: false }));
    plot.current = new uPlot(
      { width, height: HEIGHT, series: [{}, ...series], scales: { x: { time: true } }, legend: { show: true }, cursor: { drag: { x: false, y: false } } },
      [[], ...lines.map(() => [])],
      el,
    );
    const resize =
      typeof ResizeObserver === 'function' ? new ResizeObserver(() => plot.current?.setSize({ width: Math.max(220, el.clientWidth), height: HEIGHT })) : null;
    resize?.observe(el);
    return () => {
      resize?.disconnect();
      plot.current?.destroy();
      plot.current = null;
    };
    // Rebuilt only when the lines themselves change, not their values.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [labels]);

  useEffect(() => {
    plot.current?.setData([[...xs], ...lines.map((l) => [...l.values])] as uPlot.AlignedData);
  }, [xs, lines]);

  return (
    <figure className="metrics-chart" data-testid={testId}>
      <figcaption className="section-title">{title}</figcaption>
      <div ref={host} />
    </figure>
  );
}
