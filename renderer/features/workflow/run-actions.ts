import type { StudioClient } from '../../../shared/api/client';
import type { RunDetail, RunSummary } from '../../../shared/api/runs.schema';
import { isTerminal } from '../../../shared/status/status';
import { currentBreakpoints, debugSettingsOf, useDebug } from '../../store/debug-store';
import { useInbox } from '../../store/inbox-store';
import { useRunFeed } from '../../store/run-feed-store';
import { describeError } from './describe-error';
import { clearBanner, showNoRun, showStartedRun, type RunViewStores } from './run-view';

/** Starting a run from the canvas and showing runs on it. */
export interface RunActions {
  /** Saves first when needed, starts a run (with an idempotency key when given) and shows it live. */
  run(payload?: Record<string, unknown>, options?: { idempotencyKey?: string }): Promise<void>;
  showRun(executionId: string): Promise<void>;
  /** Back to editing: no run on the canvas. */
  exitRun(): void;
  refreshRuns(): Promise<void>;
}

/** What the run actions ask of the other action groups. */
export interface RunPeers {
  save(): Promise<boolean>;
  refreshControl(): Promise<void>;
}

export function createRunActions(api: StudioClient, stores: RunViewStores, peers: RunPeers): RunActions {
  return { ...createStartAction(api, stores, peers), ...createViewActions(api, stores, peers) };
}

/** Starting a run: saved first when needed, with the breakpoints set, then shown live. */
function createStartAction(api: StudioClient, stores: RunViewStores, peers: RunPeers): Pick<RunActions, 'run'> {
  const { studio } = stores;
  return {
    async run(payload = {}, options = {}) {
      const before = studio.getState();
      if (before.running) return;
      if (before.dirty || before.storedWorkflowId === null || before.storedWorkflowId !== before.workflowId) {
        if (!(await peers.save())) return;
      }
      const state = studio.getState();
      const workflowId = state.storedWorkflowId;
      if (workflowId === null) return;
      state.setRunning(true);
      try {
        const debug = debugSettingsOf(currentBreakpoints(useDebug.getState()), new Set(state.nodes.map((n) => n.id)));
        const { executionId } = await api['runs.start']({ session: state.session, workflowId, payload, ...options, ...(debug ? { debug } : {}) });
        clearBanner(studio, 'run-error');
        state.upsertRun({
          executionId,
          session: state.session,
          workflowId,
          definitionVersion: state.storedVersion ?? '',
          status: 'PENDING',
          createdAt: Date.now(),
        });
        state.setBottomTab('runs');
        showStartedRun(stores, executionId, debug !== undefined, peers.refreshControl);
      } catch (error) {
        studio.getState().showBanner({ kind: 'run-error', message: `Run not started: ${describeError(error)}` });
      } finally {
        studio.getState().setRunning(false);
      }
    },
  };
}

/** Showing a run on the canvas (its snapshot merged with live events), leaving it, and the list of runs. */
function createViewActions(api: StudioClient, stores: RunViewStores, peers: RunPeers): Omit<RunActions, 'run'> {
  const { studio, live } = stores;
  return {
    async showRun(executionId) {
      // Show first, then read the snapshot: events arriving meanwhile merge forward-only with it.
      studio.getState().selectRun(executionId);
      live.getState().show(executionId);
      useDebug.getState().setControl(null);
      useDebug.getState().setError(null);
      useRunFeed.getState().showResults(executionId);
      try {
        const detail = await api['runs.get']({ executionId });
        if (live.getState().executionId !== executionId) return;
        live.getState().applyNodes(executionId, detail.nodes);
        live.getState().applyRunStatus(executionId, detail.status);
        live.getState().reconcileWaits(useInbox.getState().approvals);
        useRunFeed.getState().showResults(executionId, detail.results, detail.resultsTruncated);
        studio.getState().upsertRun(summaryOf(detail));
        if (!isTerminal(detail.status)) void peers.refreshControl();
      } catch (error) {
        studio.getState().showBanner({ kind: 'run-error', message: `Could not read run ${executionId}: ${describeError(error)}` });
      }
    },

    exitRun() {
      showNoRun(stores);
    },

    async refreshRuns() {
      const { session, storedWorkflowId } = studio.getState();
      if (storedWorkflowId === null) return;
      try {
        const runs = await api['runs.list']({ session, workflowId: storedWorkflowId, limit: 100 });
        const now = studio.getState();
        if (now.storedWorkflowId === storedWorkflowId) now.setRuns(runs);
      } catch {
        // Live events keep the list current; a failed refresh is retried on the next open.
      }
    },
  };
}

function summaryOf(detail: RunDetail): RunSummary {
  const { nodes: _nodes, results: _results, resultsTruncated: _truncated, ...summary } = detail;
  return summary;
}
