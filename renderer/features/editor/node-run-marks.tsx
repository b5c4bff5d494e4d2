import { memo } from 'react';
import { currentBreakpoints, useDebug } from '../../store/debug-store';
import { heldMs } from '../../store/hold-clock';
import { useLive } from '../../store/live-store';
import { useActions } from '../workflow/actions-context';
import { renderProbe } from './render-probe';

/**
 * The breakpoint gutter dot of a node (STU-04): hollow until hovered, red when set, with a ring when it has
 * a condition. A click toggles it (F9 does the same for the selected node); the inspector edits the condition.
 */
export const BreakpointDot = memo(function BreakpointDot({ nodeId }: { nodeId: string }) {
  const breakpoint = useDebug((s) => currentBreakpoints(s)[nodeId]);
  const actions = useActions();
  const state = !breakpoint ? 'off' : breakpoint.enabled === false ? 'disabled' : breakpoint.condition ? 'conditional' : 'on';
  const label = !breakpoint
    ? 'Set a breakpoint (F9)'
    : breakpoint.enabled === false
      ? 'Breakpoint disabled in the Breakpoints list (click to remove)'
      : breakpoint.condition
        ? `Breakpoint when ${breakpoint.condition.path} == ${breakpoint.condition.equals} (click to remove)`
        : 'Breakpoint before the next message (click to remove)';
  return (
    <button
      type="button"
      className={`breakpoint-dot nodrag nopan is-${state}`}
      onClick={() => actions?.toggleBreakpoint(nodeId)}
      aria-label={label}
      aria-pressed={breakpoint !== undefined}
      title={label}
      data-testid={`breakpoint-dot-${nodeId}`}
      data-state={state}
    />
  );
});

/**
 * Counts, attempts, duration and input buffer of a node in the shown run (the canvas overlay, STU-03). It
 * subscribes to the node's live entry itself, so a count update re-renders this line, not the whole node.
 */
export const NodeRunFigures = memo(function NodeRunFigures({ id }: { id: string }) {
  renderProbe?.(id);
  const live = useLive((s) => s.nodes[id]);
  if (!live) return null;
  const { counts, buffer } = live;
  const duration = live.startedAt !== undefined && live.endedAt !== undefined ? live.endedAt - live.startedAt : null;
  return (
    <>
      <span className="studio-node-counts" title="messages received / emitted" data-testid={`node-counts-${id}`}>
        {counts.received} in · {counts.emitted} out
      </span>
      {/* Always drawn in a run, at a fixed height: a node that changes size makes React Flow measure it again
          and redraw its edges (bench/ui-live). */}
      <span className="studio-node-extra">
        {counts.failed ? <span className="is-error">{counts.failed} failed</span> : null}
        {counts.retried ? <span title="attempts retried (beyond each message's first)">↻ {counts.retried}</span> : null}
        {live.attempt ? (
          <span className="is-warning" title="the attempt running now for a message being retried" data-testid={`node-attempt-${id}`}>
            try {live.attempt}
          </span>
        ) : null}
        {duration !== null && <NodeDuration total={duration} held={heldMs(live.hold, live.endedAt ?? 0)} />}
        {buffer && (
          <span
            className="node-buffer"
            title={`input buffer ${buffer.used} / ${buffer.size}`}
            data-testid={`node-buffer-${id}`}
            role="meter"
            aria-valuemin={0}
            aria-valuemax={buffer.size}
            aria-valuenow={buffer.used}
            aria-label="Input buffer"
          >
            <span className="node-buffer-fill" style={{ width: `${Math.min(100, (100 * buffer.used) / Math.max(1, buffer.size))}%` }} />
          </span>
        )}
      </span>
    </>
  );
});

/** Active time; time held at a breakpoint or waiting for a signal apart (STU-04). */
function NodeDuration({ total, held }: { total: number; held: number }) {
  if (held <= 0) return <span title="time from start to end">{formatShort(total)}</span>;
  return (
    <span title={`active ${formatShort(total - held)}, held or waiting ${formatShort(held)}`} data-testid="node-duration-split">
      {formatShort(total - held)} · {formatShort(held)} held
    </span>
  );
}

function formatShort(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.round(ms / 60_000)} min`;
}
