import type { StudioClient } from '../../../shared/api/client';
import type { ControlCommandInput, ControlResult, StopMode } from '../../../shared/api/control.schema';
import { isTerminal } from '../../../shared/status/status';
import { singleFlight } from '../../api/single-flight';
import { selectedNodeId } from '../../store/graph-slice';
import type { useDebug } from '../../store/debug-store';
import { useLive } from '../../store/live-store';
import type { useStudio } from '../../store/studio-store';
import { describeError } from '../workflow/describe-error';

/** The stores the debugger's actions read and write. */
export type DebugStores = { studio: typeof useStudio; live: typeof useLive; debug: typeof useDebug };

/** Commands to the shown run and its valves (STU-04). */
export interface RunCommandActions {
  /** Sends a command to the shown run; null (the reason in the run banner) when refused or no run is live. */
  command(command: ControlCommandInput): Promise<ControlResult | null>;
  /** Reads the shown run's valves again (calls during a read make one more read, not one each). */
  refreshControl(): Promise<void>;
  /** F6: pauses the run, or resumes it with every node paused or holding a message. */
  pauseOrResume(): Promise<void>;
  /** F10: lets `stepCount` messages through the node holding one (the selected one first), or steps the run. */
  step(): Promise<void>;
  stop(mode: StopMode): Promise<void>;
  replaceHeld(nodeId: string, payload: unknown): Promise<boolean>;
  /** Stops one node of the shown run (CTL-03): it ends STOPPED, its children see the end of their input. */
  stopNode(nodeId: string): Promise<void>;
}

/** True while the shown run can take commands. */
export function shownRunLive(live = useLive): boolean {
  const { executionId, runStatus } = live.getState();
  return executionId !== null && (runStatus === null || !isTerminal(runStatus));
}

/** Reads the shown run's valves, one read at a time (a call during a read makes one more). */
function controlReader(api: StudioClient, { live, debug }: DebugStores): () => Promise<void> {
  return singleFlight(async () => {
    const executionId = live.getState().executionId;
    if (executionId === null) return;
    try {
      const control = await api['control.state']({ executionId });
      if (live.getState().executionId !== executionId) return;
      debug.getState().setControl(control);
      // The snapshot also says which nodes hold a message (events only say when that changes).
      live.getState().applyNodes(
        executionId,
        control.nodes.flatMap((n) => {
          const known = live.getState().nodes[n.nodeId];
          return known ? [{ nodeId: n.nodeId, status: known.status, counts: known.counts, held: n.held?.id ?? null, heldAt: Date.now() }] : [];
        }),
      );
    } catch (error) {
      debug.getState().setError(`Could not read the run's valves: ${describeError(error)}`);
    }
  });
}

export function createRunCommandActions(api: StudioClient, stores: DebugStores): RunCommandActions {
  const { studio, live, debug } = stores;
  const readControl = controlReader(api, stores);
  const command = async (cmd: ControlCommandInput): Promise<ControlResult | null> => {
    const executionId = live.getState().executionId;
    if (executionId === null || !shownRunLive(live)) return null;
    try {
      const result = await api['control.send']({ executionId, command: cmd });
      debug.getState().setError(null);
      return result;
    } catch (error) {
      debug.getState().setError(`${cmd.type} refused: ${describeError(error)}`);
      return null;
    } finally {
      void readControl();
    }
  };
  return {
    command,
    refreshControl: readControl,
    async pauseOrResume() {
      const control = debug.getState().control;
      const holding = control?.paused || control?.nodes.some((n) => n.paused || n.held);
      await command({ type: holding ? 'ResumeWorkflow' : 'PauseWorkflow' });
    },
    async step() {
      const { control, stepCount } = debug.getState();
      if (!control) return;
      const selected = selectedNodeId(studio.getState());
      const holding = control.nodes.filter((n) => n.held !== null || n.paused);
      const target = holding.find((n) => n.nodeId === selected) ?? holding.find((n) => n.held !== null) ?? holding[0];
      if (target) await command({ type: 'Step', nodeId: target.nodeId, count: stepCount });
      else if (control.paused || control.stepMode) await command({ type: 'Step', count: stepCount });
    },
    async stop(mode) {
      debug.getState().setStopMenuOpen(false);
      await command({ type: 'StopWorkflow', mode });
    },
    async replaceHeld(nodeId, payload) {
      return (await command({ type: 'ReplaceHeldMessage', nodeId, payload })) !== null;
    },
    async stopNode(nodeId) {
      await command({ type: 'StopNode', nodeId, mode: 'CANCEL' });
    },
  };
}
