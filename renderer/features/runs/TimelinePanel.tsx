import { ChartGantt } from 'lucide-react';
import { useEffect, useState } from 'react';
import { isTerminal } from '../../../shared/status/status';
import { STATUS_STYLES, statusClassName } from '../../components/status';
import { useLive, type LiveNodeState } from '../../store/live-store';
import { useStudio } from '../../store/studio-store';
import { formatMs } from '../../components/format-duration';

/** One bar of the timeline: a node from its start to its end (or to now while it works). */
export interface TimelineBar {
  nodeId: string;
  state: LiveNodeState;
  /** Offsets from the run's first start, in ms. */
  from: number;
  to: number;
}

/** The bars of the shown run, in canvas order; nodes that never started have none. */
export function timelineBars(nodeIds: readonly string[], nodes: Readonly<Record<string, LiveNodeState>>, now: number): { bars: TimelineBar[]; span: number } {
  const started = nodeIds.flatMap((id) => (nodes[id]?.startedAt !== undefined ? [id] : []));
  if (started.length === 0) return { bars: [], span: 0 };
  const origin = Math.min(...started.map((id) => nodes[id]!.startedAt!));
  const bars = started.map((nodeId) => {
    const state = nodes[nodeId]!;
    const end = state.endedAt ?? Math.max(now, state.startedAt!);
    return { nodeId, state, from: state.startedAt! - origin, to: end - origin };
  });
  return { bars, span: Math.max(1, ...bars.map((b) => b.to)) };
}

/**
 * Timeline tab (STU-03): node activity of the shown run as a Gantt chart, one bar per node from its start
 * to its end, coloured by status (with the status as text too); bars of working nodes grow while open.
 */
export function TimelinePanel() {
  const executionId = useLive((s) => s.executionId);
  const nodes = useLive((s) => s.nodes);
  const runStatus = useLive((s) => s.runStatus);
  const order = useStudio((s) => s.nodes.map((n) => n.id).join('\u0000'));
  const [now, setNow] = useState(() => Date.now());
  const working = runStatus === null || !isTerminal(runStatus);
  useEffect(() => {
    if (!working || executionId === null) return;
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, [working, executionId]);

  const ids = order.split('\u0000').filter(Boolean);
  for (const id of Object.keys(nodes)) if (!ids.includes(id)) ids.push(id);
  const { bars, span } = timelineBars(ids, nodes, now);
  if (executionId === null || bars.length === 0) {
    return (
      <div className="empty-hint" data-testid="timeline-empty">
        <ChartGantt size={16} aria-hidden="true" />
        <p>{executionId === null ? 'Select a run in the Runs tab: each node is drawn as a bar from its start to its end.' : 'No node has started yet.'}</p>
      </div>
    );
  }
  return (
    <div className="timeline" data-testid="timeline" role="list" aria-label="Node activity">
      <div className="timeline-axis">
        <span>0</span>
        <span>{formatMs(span / 2)}</span>
        <span>{formatMs(span)}</span>
      </div>
      {bars.map((bar) => {
        const style = STATUS_STYLES[bar.state.status];
        return (
          <div key={bar.nodeId} className="timeline-row" role="listitem" data-testid={`timeline-row-${bar.nodeId}`}>
            <code className="timeline-label">{bar.nodeId}</code>
            <div className="timeline-track">
              <div
                className={`timeline-bar ${statusClassName(bar.state.status)}`}
                style={{
                  ['--status-color' as string]: style.color,
                  left: `${(100 * bar.from) / span}%`,
                  width: `max(2px, ${(100 * (bar.to - bar.from)) / span}%)`,
                }}
                title={`${bar.nodeId}: ${style.label}, ${formatMs(bar.to - bar.from)} (from +${formatMs(bar.from)})`}
                data-testid={`timeline-bar-${bar.nodeId}`}
                data-status={bar.state.status}
              />
            </div>
            <span className="timeline-figure">
              {style.label} · {formatMs(bar.to - bar.from)}
            </span>
          </div>
        );
      })}
    </div>
  );
}
