import { isTerminal } from '../../../shared/status/status';
import { useDebug } from '../../store/debug-store';
import { useInbox } from '../../store/inbox-store';
import type { useLive } from '../../store/live-store';
import { updatesOf } from '../../store/recent-runs';
import { useRunFeed } from '../../store/run-feed-store';
import type { useStudio } from '../../store/studio-store';

/** The two stores a run on the canvas is shown through. */
export interface RunViewStores {
  studio: typeof useStudio;
  live: typeof useLive;
}

/** Back to editing: no run selected, on the canvas or in the debugger and results. */
export function showNoRun({ studio, live }: RunViewStores): void {
  studio.getState().selectRun(null);
  live.getState().show(null);
  useDebug.getState().setControl(null);
  useRunFeed.getState().showResults(null);
}

/**
 * Shows a run just started from the canvas without reading it again: from what its events said before
 * `runs.start` answered (kept by the live store, `recent`), and from the events still to come. Only a run
 * started with debug settings reads its valves (`control.state`), for the debugger.
 */
export function showStartedRun({ studio, live }: RunViewStores, executionId: string, readValves: boolean, refreshControl: () => Promise<void>): void {
  const heard = live.getState().recent.take(executionId);
  studio.getState().selectRun(executionId);
  live.getState().show(executionId);
  useDebug.getState().setControl(null);
  useDebug.getState().setError(null);
  useRunFeed.getState().showResults(executionId, heard?.results, heard?.resultsTruncated);
  if (heard) {
    live.getState().applyNodes(executionId, updatesOf(heard.nodes));
    if (heard.status !== null) live.getState().applyRunStatus(executionId, heard.status);
  } else {
    // Nothing heard yet: the run is of the graph just saved, every node PENDING until its events come.
    live.getState().applyNodes(
      executionId,
      studio.getState().nodes.map((n) => ({ nodeId: n.id, status: 'PENDING', counts: { received: 0, emitted: 0 } })),
    );
  }
  // A wait that began before the run was shown counts from the inbox's since (STU-04).
  live.getState().reconcileWaits(useInbox.getState().approvals);
  if (readValves && !(heard?.status && isTerminal(heard.status))) void refreshControl();
}

/** Clears the banner of one kind, if it is the one showing. */
export function clearBanner(studio: typeof useStudio, kind: 'save-error' | 'run-error' | 'load-error'): void {
  if (studio.getState().banner?.kind === kind) studio.getState().showBanner(null);
}
