import type { StudioEvent } from '../../../shared/events/events';
import type { Status } from '../../../shared/status/status';
import type { LiveNodeUpdate } from '../../store/live-store';
import { useLive } from '../../store/live-store';
import type { RunStatusChange } from '../../store/runs-slice';
import { useStudio } from '../../store/studio-store';

/** The event types the studio subscribes to for the run list and the canvas overlay. */
export const LIVE_EVENT_TYPES = ['EXECUTION_STATUS', 'NODE_STATUS'] as const;

/**
 * Applies a coalesced set of events: EXECUTION_STATUS updates the run list, NODE_STATUS of the shown
 * run updates the live store — each with one store update for the whole set.
 */
export function applyStudioEvents(events: readonly StudioEvent[], studio = useStudio, live = useLive): void {
  const shown = live.getState().executionId;
  const runChanges: RunStatusChange[] = [];
  const nodeUpdates: LiveNodeUpdate[] = [];
  let shownRunStatus: Status | null = null;
  for (const event of events) {
    if (event.type === 'EXECUTION_STATUS') {
      runChanges.push({ executionId: event.executionId, session: event.session, workflowId: event.workflowId, definitionVersion: event.definitionVersion, status: event.status, at: event.at });
      if (event.executionId === shown) shownRunStatus = event.status;
    } else if (event.type === 'NODE_STATUS' && event.executionId === shown) {
      nodeUpdates.push({ nodeId: event.nodeId, status: event.status, counts: event.counts });
    }
  }
  if (runChanges.length) studio.getState().applyRunStatuses(runChanges);
  if (shown !== null && nodeUpdates.length) live.getState().applyNodes(shown, nodeUpdates);
  if (shown !== null && shownRunStatus !== null) live.getState().applyRunStatus(shown, shownRunStatus);
}
