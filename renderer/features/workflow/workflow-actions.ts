import type { StudioClient } from '../../../shared/api/client';
import { useLive } from '../../store/live-store';
import { useStudio } from '../../store/studio-store';
import { createDebugActions, type DebugActions } from '../debugger/debug-actions';
import { browserAnnouncer } from '../inbox/browser-notifications';
import { createInboxActions, type InboxActions } from '../inbox/inbox-actions';
import { createSessionActions, type SessionActions } from '../sessions/session-actions';
import { createVersionActions, type VersionActions } from '../versions/version-actions';
import { createDeleteActions, type DeleteActions } from './delete-workflow';
import { createFileActions, type FileActions } from './file-actions';
import { createOpenActions, type OpenActions } from './open-actions';
import { createRunActions, type RunActions } from './run-actions';
import { createSaveActions, type SaveActions } from './save-actions';

type StudioStore = typeof useStudio;
type LiveStore = typeof useLive;

/** What the app bar, the keyboard and the panels can do; each talks to the server through the client. */
export interface StudioActions
  extends OpenActions, SaveActions, RunActions, FileActions, VersionActions, SessionActions, DebugActions, InboxActions, DeleteActions {}

/**
 * One object of every action group. The groups call each other (a save refreshes the versions, opening a
 * workflow loads its breakpoints) through the composed object, by name, once it exists.
 */
export function createStudioActions(api: StudioClient, studio: StudioStore = useStudio, live: LiveStore = useLive): StudioActions {
  const stores = { studio, live };
  const actions: StudioActions = {
    ...createOpenActions(api, stores, {
      refreshSessions: () => actions.refreshSessions(),
      refreshVersions: () => actions.refreshVersions(),
      refreshRuns: () => actions.refreshRuns(),
      loadBreakpoints: (session, workflowId) => actions.loadBreakpoints(session, workflowId),
    }),
    ...createSaveActions(api, studio, {
      refreshWorkflows: () => actions.refreshWorkflows(),
      refreshVersions: () => actions.refreshVersions(),
      refreshRuns: () => actions.refreshRuns(),
      persistBreakpoints: () => actions.persistBreakpoints(),
    }),
    ...createRunActions(api, stores, { save: () => actions.save(), refreshControl: () => actions.refreshControl() }),
    ...createDebugActions(api, (executionId) => actions.showRun(executionId)),
    ...createInboxActions(
      api,
      browserAnnouncer((key) => void actions.openApproval(key)),
    ),
    ...createFileActions(api, studio),
    ...createVersionActions(api, (session, workflowId) => actions.openWorkflow(session, workflowId), studio),
    ...createSessionActions(api, { newWorkflow: (session) => actions.newWorkflow(session), refreshWorkflows: () => actions.refreshWorkflows() }, studio),
    ...createDeleteActions(api, { newWorkflow: () => actions.newWorkflow(), refreshWorkflows: () => actions.refreshWorkflows() }, studio),
  };
  return actions;
}
