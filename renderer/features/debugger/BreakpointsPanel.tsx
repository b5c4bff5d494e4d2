import * as Switch from '@radix-ui/react-switch';
import { CircleDot, Crosshair, Trash2 } from 'lucide-react';
import { currentBreakpoints, useDebug } from '../../store/debug-store';
import { useStudio } from '../../store/studio-store';
import { useShowNode } from '../editor/use-show-node';
import { useActions } from '../workflow/actions-context';

/**
 * Breakpoints tab (STU-04): the open workflow's breakpoints, kept by the host per workflow (no version is
 * made); each can be shown on the canvas, disabled (kept, not sent with a run) or removed.
 */
export function BreakpointsPanel() {
  const breakpoints = useDebug((s) => currentBreakpoints(s));
  const saved = useStudio((s) => s.storedWorkflowId !== null);
  const nodeIds = useStudio((s) => s.nodes.map((n) => n.id).join('\u0000'));
  const actions = useActions();
  const showNode = useShowNode();
  const entries = Object.entries(breakpoints).sort(([a], [b]) => a.localeCompare(b));
  if (entries.length === 0) {
    return (
      <div className="empty-hint" data-testid="breakpoints-empty">
        <CircleDot size={16} aria-hidden="true" />
        <p>
          No breakpoints. Click the dot at a node&apos;s left edge, or select a node and press F9; a condition is set in the inspector.
          {saved ? '' : ' They are kept once the workflow is saved.'}
        </p>
      </div>
    );
  }
  const known = new Set(nodeIds.split('\u0000'));
  return (
    <ul className="breakpoints-list" data-testid="breakpoints-list">
      {entries.map(([nodeId, bp]) => (
        <li key={nodeId} className="breakpoint-row" data-testid={`breakpoint-row-${nodeId}`} data-enabled={bp.enabled !== false}>
          <Switch.Root
            className="switch"
            checked={bp.enabled !== false}
            onCheckedChange={(on) => actions?.setBreakpointEnabled(nodeId, on)}
            aria-label={`Breakpoint at ${nodeId} enabled`}
            data-testid={`breakpoint-enabled-${nodeId}`}
          >
            <Switch.Thumb className="switch-thumb" />
          </Switch.Root>
          <code className="breakpoint-node">{nodeId}</code>
          <span className="breakpoint-condition">{bp.condition ? `when ${bp.condition.path} == ${bp.condition.equals}` : 'before every message'}</span>
          {!known.has(nodeId) && <span className="muted">(no such node on the canvas)</span>}
          <span className="app-bar-spacer" />
          <button
            type="button"
            className="button tiny"
            onClick={() => showNode(nodeId)}
            disabled={!known.has(nodeId)}
            data-testid={`breakpoint-show-${nodeId}`}
          >
            <Crosshair size={11} aria-hidden="true" /> Show
          </button>
          <button
            type="button"
            className="button tiny"
            onClick={() => actions?.setBreakpoint(nodeId, null)}
            aria-label={`Remove the breakpoint at ${nodeId}`}
            data-testid={`breakpoint-remove-${nodeId}`}
          >
            <Trash2 size={11} aria-hidden="true" /> Remove
          </button>
        </li>
      ))}
    </ul>
  );
}
