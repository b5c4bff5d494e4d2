import type { StudioClient } from '../../../shared/api/client';
import type { ControlCommandInput, ControlResult } from '../../../shared/api/control.schema';
import { currentBreakpoints, isActive, type Breakpoint } from '../../store/debug-store';
import { describeError } from '../workflow/describe-error';
import type { DebugStores } from './run-command-actions';

/** The canvas breakpoints (STU-04): set on the canvas, kept on the host, followed by the shown run. */
export interface BreakpointActions {
  /** F9 and the gutter dot: a breakpoint without condition on the node, or none. */
  toggleBreakpoint(nodeId: string): void;
  setBreakpoint(nodeId: string, breakpoint: Breakpoint | null): void;
  /** Disables a breakpoint (kept in the list, not sent with a run) or enables it again. */
  setBreakpointEnabled(nodeId: string, enabled: boolean): void;
  /** Reads a saved workflow's breakpoints from the host (they live outside its definition: STU-04). */
  loadBreakpoints(session: string, workflowId: string): Promise<void>;
  /** Writes the open workflow's breakpoints to the host, when it is saved (a new one keeps them until then). */
  persistBreakpoints(): Promise<void>;
}

export function createBreakpointActions(
  api: StudioClient,
  { studio, live, debug }: DebugStores,
  command: (command: ControlCommandInput) => Promise<ControlResult | null>,
): BreakpointActions {
  const persistBreakpoints = async (): Promise<void> => {
    const { session, storedWorkflowId } = studio.getState();
    const key = debug.getState().workflowKey;
    if (storedWorkflowId === null || key !== `${session}/${storedWorkflowId}`) return;
    const list = Object.entries(currentBreakpoints(debug.getState())).map(([nodeId, bp]) => ({
      nodeId,
      enabled: bp.enabled !== false,
      condition: bp.condition,
    }));
    try {
      await api['breakpoints.set']({ session, workflowId: storedWorkflowId, breakpoints: list });
    } catch (error) {
      debug.getState().setError(`Breakpoints not kept: ${describeError(error)}`);
    }
  };
  const setBreakpoint = (nodeId: string, breakpoint: Breakpoint | null): void => {
    const before = currentBreakpoints(debug.getState())[nodeId];
    debug.getState().setBreakpoint(nodeId, breakpoint);
    void persistBreakpoints();
    if (!(nodeId in live.getState().nodes)) return;
    // The shown run follows the canvas: a condition becomes the node's breakpoint; one without pauses the node.
    const active = isActive(breakpoint ?? undefined) ? breakpoint : null;
    if (active?.condition) void command({ type: 'SetBreakpoint', nodeId, ...active.condition });
    else if (isActive(before) && before.condition) void command({ type: 'ClearBreakpoint', nodeId });
    if (active && !active.condition) void command({ type: 'PauseNode', nodeId });
  };
  return {
    toggleBreakpoint(nodeId) {
      const existing = currentBreakpoints(debug.getState())[nodeId];
      setBreakpoint(nodeId, existing ? null : { condition: null });
    },
    setBreakpoint,
    setBreakpointEnabled(nodeId, enabled) {
      const bp = currentBreakpoints(debug.getState())[nodeId];
      if (bp) setBreakpoint(nodeId, { ...bp, enabled });
    },
    async loadBreakpoints(session, workflowId) {
      const key = `${session}/${workflowId}`;
      try {
        const { breakpoints } = await api['breakpoints.get']({ session, workflowId });
        debug.getState().loadBreakpoints(key, Object.fromEntries(breakpoints.map((b) => [b.nodeId, { condition: b.condition, enabled: b.enabled }])));
      } catch (error) {
        debug.getState().setError(`Could not read the breakpoints: ${describeError(error)}`);
      }
    },
    persistBreakpoints,
  };
}
