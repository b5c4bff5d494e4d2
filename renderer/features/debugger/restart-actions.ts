import type { StudioClient } from '../../../shared/api/client';
import type { ControlCommandInput } from '../../../shared/api/control.schema';
import { describeError } from '../workflow/describe-error';
import type { DebugStores } from './run-command-actions';

/** New runs from the shown one: restart, restart from a node, retry a node, resume (DUR-03). */
export interface RestartActions {
  /** Restart, restart from a node or retry a node: the new run is shown. */
  restart(kind: 'Restart' | 'RestartFromNode' | 'RetryNode', nodeId?: string): Promise<void>;
  /** Resumes the shown ABORTED run from its last checkpoint (DUR-03): the new run is shown. */
  resume(): Promise<void>;
}

export function createRestartActions(api: StudioClient, { live, debug }: DebugStores, showRun: (executionId: string) => Promise<void>): RestartActions {
  return {
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
  };
}
