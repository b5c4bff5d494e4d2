import type { StudioClient } from '../../../shared/api/client';
import type { ControlCommandInput, ControlResult, StopMode } from '../../../shared/api/control.schema';
import { isTerminal } from '../../../shared/status/status';
import { singleFlight } from '../../api/single-flight';
import { selectedNodeId } from '../../store/graph-slice';
import { useDebug, currentBreakpoints, isActive, type Breakpoint } from '../../store/debug-store';
import { useLive } from '../../store/live-store';
import { useStudio } from '../../store/studio-store';
import { describeError } from '../workflow/describe-error';

type Stores = { studio: typeof useStudio; live: typeof useLive; debug: typeof useDebug };

/** The debugger (STU-04): commands to the shown run, its valves, and the canvas breakpoints. */
export interface DebugActions {
  /** Sends a command to the shown run; null (the reason in the run banner) when refused or no run is live. */
  command(command: ControlCommandInput): Promise<ControlResult | null>;
  /** Reads the shown run's valves again (calls during a read make one more read, not one each). */
  refreshControl(): Promise<void>;
  /** F6: pauses the run, or resumes it with every node paused or holding a message. */
  pauseOrResume(): Promise<void>;
  /** F10: lets `stepCount` messages through the node holding one (the selected one first), or steps the run. */
  step(): Promise<void>;
  stop(mode: StopMode): Promise<void>;
  /** F9 and the gutter dot: a breakpoint without condition on the node, or none. */
  toggleBreakpoint(nodeId: string): void;
  setBreakpoint(nodeId: string, breakpoint: Breakpoint | null): void;
  /** Disables a breakpoint (kept in the list, not sent with a run) or enables it again. */
  setBreakpointEnabled(nodeId: string, enabled: boolean): void;
  /** Reads a saved workflow's breakpoints from the host (they live outside its definition: STU-04). */
  loadBreakpoints(session: string, workflowId: string): Promise<void>;
  /** Writes the open workflow's breakpoints to the host, when it is saved (a new one keeps them until then). */
  persistBreakpoints(): Promise<void>;
  replaceHeld(nodeId: string, payload: unknown): Promise<boolean>;
  /** Restart, restart from a node or retry a node: the new run is shown. */
  restart(kind: 'Restart' | 'RestartFromNode' | 'RetryNode', nodeId?: string): Promise<void>;
  /** Resumes the shown ABORTED run from its last checkpoint (DUR-03): the new run is shown. */
  resume(): Promise<void>;
  /** Stops one node of the shown run (CTL-03): it ends STOPPED, its children see the end of their input. */
  stopNode(nodeId: string): Promise<void>;
}

/** True while the shown run can take commands. */
export function shownRunLive(live = useLive): boolean {
  const { executionId, runStatus } = live.getState();
  return executionId !== null && (runStatus === null || !isTerminal(runStatus));
}

export function createDebugActions(api: StudioClient, showRun: (executionId: string) => Promise<void>, stores: Stores = { studio: useStudio, live: useLive, debug: useDebug }): DebugActions {
  const { studio, live, debug } = stores;
  const readControl = singleFlight(async () => {
    const executionId = live.getState().executionId;
    if (executionId === null) return;
    try {
      const control = await api['control.state']({ executionId });
      if (live.getState().executionId !== executionId) return;
      debug.getState().setControl(control);
      // The snapshot also says which nodes hold a message (events only say when that changes).
      live.getState().applyNodes(executionId, control.nodes.flatMap((n) => {
        const known = live.getState().nodes[n.nodeId];
        return known ? [{ nodeId: n.nodeId, status: known.status, counts: known.counts, held: n.held?.id ?? null, heldAt: Date.now() }] : [];
      }));
    } catch (error) {
      debug.getState().setError(`Could not read the run's valves: ${describeError(error)}`);
    }
  });

  const actions: DebugActions = {
    async command(command) {
      const executionId = live.getState().executionId;
      if (executionId === null || !shownRunLive(live)) return null;
      try {
        const result = await api['control.send']({ executionId, command });
        debug.getState().setError(null);
        return result;
      } catch (error) {
        debug.getState().setError(`${command.type} refused: ${describeError(error)}`);
        return null;
      } finally {
        void readControl();
      }
    },
    refreshControl: readControl,
    async pauseOrResume() {
      const control = debug.getState().control;
      const holding = control?.paused || control?.nodes.some((n) => n.paused || n.held);
      await actions.command({ type: holding ? 'ResumeWorkflow' : 'PauseWorkflow' });
    },
    async step() {
      const { control, stepCount } = debug.getState();
      if (!control) return;
      const selected = selectedNodeId(studio.getState());
      const holding = control.nodes.filter((n) => n.held !== null || n.paused);
      const target = holding.find((n) => n.nodeId === selected) ?? holding.find((n) => n.held !== null) ?? holding[0];
      if (target) await actions.command({ type: 'Step', nodeId: target.nodeId, count: stepCount });
      else if (control.paused || control.stepMode) await actions.command({ type: 'Step', count: stepCount });
    },
    async stop(mode) {
      debug.getState().setStopMenuOpen(false);
      await actions.command({ type: 'StopWorkflow', mode });
    },
    toggleBreakpoint(nodeId) {
      const existing = currentBreakpoints(debug.getState())[nodeId];
      actions.setBreakpoint(nodeId, existing ? null : { condition: null });
    },
    setBreakpoint(nodeId, breakpoint) {
      const before = currentBreakpoints(debug.getState())[nodeId];
      debug.getState().setBreakpoint(nodeId, breakpoint);
      void actions.persistBreakpoints();
      if (!(nodeId in live.getState().nodes)) return;
      // The shown run follows the canvas: a condition becomes the node's breakpoint; one without pauses the node.
      const active = isActive(breakpoint ?? undefined) ? breakpoint : null;
      if (active?.condition) void actions.command({ type: 'SetBreakpoint', nodeId, ...active.condition });
      else if (isActive(before) && before.condition) void actions.command({ type: 'ClearBreakpoint', nodeId });
      if (active && !active.condition) void actions.command({ type: 'PauseNode', nodeId });
    },
    setBreakpointEnabled(nodeId, enabled) {
      const bp = currentBreakpoints(debug.getState())[nodeId];
      if (bp) actions.setBreakpoint(nodeId, { ...bp, enabled });
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
    async persistBreakpoints() {
      const { session, storedWorkflowId } = studio.getState();
      const key = debug.getState().workflowKey;
      if (storedWorkflowId === null || key !== `${session}/${storedWorkflowId}`) return;
      const list = Object.entries(currentBreakpoints(debug.getState())).map(([nodeId, bp]) => ({ nodeId, enabled: bp.enabled !== false, condition: bp.condition }));
      try {
        await api['breakpoints.set']({ session, workflowId: storedWorkflowId, breakpoints: list });
      } catch (error) {
        debug.getState().setError(`Breakpoints not kept: ${describeError(error)}`);
      }
    },
    async replaceHeld(nodeId, payload) {
      return (await actions.command({ type: 'ReplaceHeldMessage', nodeId, payload })) !== null;
    },
    async restart(kind, nodeId) {
      const command: ControlCommandInput = kind === 'Restart' ? { type: 'Restart' } : { type: kind, nodeId: nodeId ?? '' };
      const executionId = live.getState().executionId;
      if (executionId === null) return;
      try {
        // Restarts are allowed on finished runs too (the archive keeps them), so not through `command`.
        const result = await api['control.send']({ executionId, command });
        debug.getState().setError(null);
        if (result.newExecutionId) await showRun(result.newExecutionId);
      } catch (error) {
        debug.getState().setError(`${kind} refused: ${describeError(error)}`);
      }
    },
    async resume() {
      const executionId = live.getState().executionId;
      if (executionId === null) return;
      try {
        const result = await api['runs.resume']({ executionId });
        debug.getState().setError(null);
        await showRun(result.executionId);
      } catch (error) {
        debug.getState().setError(`Resume refused: ${describeError(error)}`);
      }
    },
    async stopNode(nodeId) {
      await actions.command({ type: 'StopNode', nodeId, mode: 'CANCEL' });
    },
  };
  return actions;
}
