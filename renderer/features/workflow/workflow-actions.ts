import type { StudioClient } from '../../../shared/api/client';
import { StudioApiError } from '../../../shared/api/errors';
import type { RunDetail, RunSummary } from '../../../shared/api/runs.schema';
import { DEFAULT_SESSION, identifierProblem } from '../../../shared/workflow/identifier';
import { isTerminal } from '../../../shared/status/status';
import { currentBreakpoints, debugSettingsOf, useDebug } from '../../store/debug-store';
import { toDefinition } from '../../store/graph-model';
import { useInbox } from '../../store/inbox-store';
import { useLive } from '../../store/live-store';
import { updatesOf } from '../../store/recent-runs';
import { useRunFeed } from '../../store/run-feed-store';
import { useStudio } from '../../store/studio-store';
import { createDebugActions, type DebugActions } from '../debugger/debug-actions';
import { browserAnnouncer } from '../inbox/browser-notifications';
import { createInboxActions, type InboxActions } from '../inbox/inbox-actions';
import { createSessionActions, type SessionActions } from '../sessions/session-actions';
import { createVersionActions, type VersionActions } from '../versions/version-actions';
import { describeError } from './describe-error';
import { createDeleteActions, type DeleteActions } from './delete-workflow';
import { createFileActions, type FileActions } from './file-actions';
import { replaceSessionHash, replaceWorkflowHash } from './hash-route';

type StudioStore = typeof useStudio;
type LiveStore = typeof useLive;

/** What the app bar, the keyboard and the panels can do; each talks to the server through the client. */
export interface StudioActions extends FileActions, VersionActions, SessionActions, DebugActions, InboxActions, DeleteActions {
  loadCatalog(): Promise<void>;
  refreshWorkflows(): Promise<void>;
  openWorkflow(session: string, workflowId: string): Promise<void>;
  /** A new empty workflow, in the current session unless another is named. */
  newWorkflow(session?: string): void;
  /** Saves the open workflow (with an optional note on the version); false (with the reason in the banner) when refused. */
  save(note?: string): Promise<boolean>;
  /** Saves first when needed, starts a run (with an idempotency key when given) and shows it live. */
  run(payload?: Record<string, unknown>, options?: { idempotencyKey?: string }): Promise<void>;
  showRun(executionId: string): Promise<void>;
  /** Back to editing: no run on the canvas. */
  exitRun(): void;
  refreshRuns(): Promise<void>;
}

export function createStudioActions(api: StudioClient, studio: StudioStore = useStudio, live: LiveStore = useLive): StudioActions {
  const clearBanner = (kind: 'save-error' | 'run-error' | 'load-error') => {
    if (studio.getState().banner?.kind === kind) studio.getState().showBanner(null);
  };

  const core: Omit<StudioActions, keyof FileActions | keyof VersionActions | keyof SessionActions | keyof DebugActions | keyof InboxActions | keyof DeleteActions> = {
    async loadCatalog() {
      try {
        studio.getState().setNodeTypes(await api['nodeTypes.list']({}));
      } catch (error) {
        studio.getState().setCatalogError(describeError(error));
      }
    },

    async refreshWorkflows() {
      // The session picker counts workflows: a save, restore, import or delete changes both labels.
      void actions.refreshSessions();
      try {
        const session = studio.getState().session;
        const list = await api['workflows.list']({ session });
        if (studio.getState().session === session) studio.getState().setWorkflows(list);
      } catch {
        // The picker keeps its last list; the next save or reload refreshes it.
      }
    },

    async openWorkflow(session, workflowId) {
      try {
        const stored = await api['workflows.get']({ session, workflowId });
        studio.getState().openWorkflow(stored.session, { definition: stored.definition, version: stored.version });
        // Also after a restore: the picker's node count follows the version now current.
        void actions.refreshWorkflows();
        void actions.refreshVersions();
        studio.getState().replaceRuns([]);
        showNoRun();
        useDebug.getState().setWorkflowKey(`${stored.session}/${workflowId}`);
        void actions.loadBreakpoints(stored.session, workflowId);
        clearBanner('load-error');
        replaceWorkflowHash({ session: stored.session, workflowId });
        await actions.refreshRuns();
      } catch (error) {
        const notFound = error instanceof StudioApiError && error.code === 'NOT_FOUND';
        studio.getState().showBanner({
          kind: 'load-error',
          message: notFound ? `Workflow "${workflowId}" is not saved on the server; a new one was opened.` : `Could not open "${workflowId}": ${describeError(error)}`,
        });
        if (notFound) {
          actions.newWorkflow();
          studio.getState().setWorkflowId(workflowId);
        }
      }
    },

    newWorkflow(session = studio.getState().session) {
      studio.getState().openWorkflow(session, null);
      studio.getState().replaceRuns([]);
      studio.getState().setSaveState('idle');
      showNoRun();
      useDebug.getState().setWorkflowKey(`${session}/`);
      replaceSessionHash(session === DEFAULT_SESSION ? null : session);
    },

    async save(note) {
      const state = studio.getState();
      const problem = identifierProblem(state.workflowId);
      if (problem) {
        state.setSaveState('failed');
        state.showBanner({ kind: 'save-error', message: `Cannot save: the workflow id ${problem}. Type an id in the bar at the top (e.g. orders-sync).` });
        return false;
      }
      const sent = { nodes: state.nodes, edges: state.edges, workflowId: state.workflowId };
      state.setSaveState('saving');
      try {
        const result = await api['workflows.save']({ session: state.session, definition: toDefinition(state), ...(note ? { note } : {}) });
        const now = studio.getState();
        const previousId = now.storedWorkflowId;
        // Only what was sent is saved: an edit made while saving keeps the workflow dirty.
        if (now.nodes === sent.nodes && now.edges === sent.edges && now.workflowId === sent.workflowId) now.markSaved(result.workflowId, result.version);
        else studio.setState({ storedWorkflowId: result.workflowId, storedVersion: result.version, savedGraph: { nodes: sent.nodes, edges: sent.edges } });
        now.setSaveState('saved');
        clearBanner('save-error');
        replaceWorkflowHash({ session: now.session, workflowId: result.workflowId });
        void actions.refreshWorkflows();
        void actions.refreshVersions();
        if (previousId !== result.workflowId) {
          rekeyBreakpoints(`${now.session}/${result.workflowId}`);
          void actions.persistBreakpoints();
          now.replaceRuns([]);
          void actions.refreshRuns();
        }
        return true;
      } catch (error) {
        studio.getState().setSaveState('failed');
        studio.getState().showBanner({ kind: 'save-error', message: `Save refused: ${describeError(error)}` });
        return false;
      }
    },

    async run(payload = {}, options = {}) {
      const before = studio.getState();
      if (before.running) return;
      if (before.dirty || before.storedWorkflowId === null || before.storedWorkflowId !== before.workflowId) {
        if (!(await actions.save())) return;
      }
      const state = studio.getState();
      const workflowId = state.storedWorkflowId;
      if (workflowId === null) return;
      state.setRunning(true);
      try {
        const debug = debugSettingsOf(currentBreakpoints(useDebug.getState()), new Set(state.nodes.map((n) => n.id)));
        const { executionId } = await api['runs.start']({ session: state.session, workflowId, payload, ...options, ...(debug ? { debug } : {}) });
        clearBanner('run-error');
        state.upsertRun({ executionId, session: state.session, workflowId, definitionVersion: state.storedVersion ?? '', status: 'PENDING', createdAt: Date.now() });
        state.setBottomTab('runs');
        showStartedRun(executionId, debug !== undefined);
      } catch (error) {
        studio.getState().showBanner({ kind: 'run-error', message: `Run not started: ${describeError(error)}` });
      } finally {
        studio.getState().setRunning(false);
      }
    },

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
        if (!isTerminal(detail.status)) void actions.refreshControl();
      } catch (error) {
        studio.getState().showBanner({ kind: 'run-error', message: `Could not read run ${executionId}: ${describeError(error)}` });
      }
    },

    exitRun() {
      showNoRun();
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
  /**
   * Shows a run just started from the canvas without reading it again: from what its events said before
   * `runs.start` answered (kept by the live store, `recent`), and from the events still to come. Only a run
   * started with debug settings reads its valves (`control.state`), for the debugger.
   */
  const showStartedRun = (executionId: string, readValves: boolean) => {
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
      live.getState().applyNodes(executionId, studio.getState().nodes.map((n) => ({ nodeId: n.id, status: 'PENDING', counts: { received: 0, emitted: 0 } })));
    }
    // A wait that began before the run was shown counts from the inbox's since (STU-04).
    live.getState().reconcileWaits(useInbox.getState().approvals);
    if (readValves && !(heard?.status && isTerminal(heard.status))) void actions.refreshControl();
  };
  const showNoRun = () => {
    studio.getState().selectRun(null);
    live.getState().show(null);
    useDebug.getState().setControl(null);
    useRunFeed.getState().showResults(null);
  };
  const actions: StudioActions = {
    ...core,
    ...createDebugActions(api, (executionId) => actions.showRun(executionId)),
    ...createInboxActions(api, browserAnnouncer((key) => void actions.openApproval(key))),
    ...createFileActions(api, studio),
    ...createVersionActions(api, (session, workflowId) => actions.openWorkflow(session, workflowId), studio),
    ...createSessionActions(api, { newWorkflow: (session) => actions.newWorkflow(session), refreshWorkflows: () => actions.refreshWorkflows() }, studio),
    ...createDeleteActions(api, { newWorkflow: () => actions.newWorkflow(), refreshWorkflows: () => actions.refreshWorkflows() }, studio),
  };
  return actions;
}

/** A workflow saved under a new id keeps the breakpoints set on its canvas. */
function rekeyBreakpoints(key: string): void {
  const debug = useDebug.getState();
  const carried = currentBreakpoints(debug);
  debug.setWorkflowKey(key);
  if (Object.keys(currentBreakpoints(useDebug.getState())).length === 0) for (const [nodeId, bp] of Object.entries(carried)) useDebug.getState().setBreakpoint(nodeId, bp);
}

function summaryOf(detail: RunDetail): RunSummary {
  const { nodes: _nodes, results: _results, resultsTruncated: _truncated, ...summary } = detail;
  return summary;
}
