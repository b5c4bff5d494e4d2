import type { StudioClient } from '../../../shared/api/client';
import { useStudio } from '../../store/studio-store';
import { describeError } from '../workflow/describe-error';
import { confirmDiscard } from '../workflow/unsaved-guard';

type StudioStore = typeof useStudio;

/** STU-07 (sessions part): list, switch, create, rename and delete sessions. Refusals come back as text. */
export interface SessionActions {
  refreshSessions(): Promise<void>;
  /** Opens a new workflow in another session (after the unsaved-changes guard). */
  switchSession(session: string): Promise<boolean>;
  createSession(session: string): Promise<string | null>;
  renameSession(session: string, newSession: string): Promise<string | null>;
  deleteSession(session: string): Promise<string | null>;
}

export function createSessionActions(
  api: StudioClient,
  hooks: { newWorkflow(session: string): void; refreshWorkflows(): Promise<void> },
  studio: StudioStore = useStudio,
): SessionActions {
  const attempt = async (body: () => Promise<void>): Promise<string | null> => {
    try {
      await body();
      return null;
    } catch (error) {
      return describeError(error);
    } finally {
      await actions.refreshSessions();
    }
  };

  const actions: SessionActions = {
    async refreshSessions() {
      try {
        studio.getState().setSessions(await api['sessions.list']({}));
      } catch {
        // The picker keeps its last list; the sessions dialog shows refusals of its own actions.
      }
    },

    async switchSession(session) {
      if (session === studio.getState().session) return true;
      if (!(await confirmDiscard(studio, 'Switching session opens a new workflow.'))) return false;
      hooks.newWorkflow(session);
      await hooks.refreshWorkflows();
      return true;
    },

    createSession: (session) => attempt(async () => void (await api['sessions.create']({ session }))),

    renameSession: (session, newSession) =>
      attempt(async () => {
        await api['sessions.rename']({ session, newSession });
        if (studio.getState().session === session) studio.setState({ session: newSession });
        await hooks.refreshWorkflows();
      }),

    deleteSession: (session) =>
      attempt(async () => {
        await api['sessions.delete']({ session });
        if (studio.getState().session === session) hooks.newWorkflow('default');
        await hooks.refreshWorkflows();
      }),
  };
  return actions;
}
