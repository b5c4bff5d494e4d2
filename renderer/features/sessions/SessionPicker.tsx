import { FolderCog } from 'lucide-react';
import { useStudio } from '../../store/studio-store';
import type { SessionActions } from './session-actions';

/** App bar: the session the workflows belong to (STU-07), and the button that manages sessions. */
export function SessionPicker({ actions }: { actions: SessionActions }) {
  const session = useStudio((s) => s.session);
  const sessions = useStudio((s) => s.sessions);
  const openDialog = useStudio((s) => s.openDialog);
  const known = sessions.some((s) => s.session === session);
  return (
    <div className="session-picker">
      <label>
        <span className="visually-hidden">Session</span>
        <select
          value={session}
          onChange={(e) => {
            const select = e.target;
            void actions.switchSession(select.value).then((switched) => {
              if (!switched) select.value = useStudio.getState().session;
            });
          }}
          aria-label="Session"
          title="Session: workflows are saved per session"
          data-testid="session-picker"
        >
          {!known && <option value={session}>{session}</option>}
          {sessions.map((s) => (
            <option key={s.session} value={s.session}>
              {s.session} ({s.workflowCount})
            </option>
          ))}
        </select>
      </label>
      <button
        type="button"
        className="icon-button"
        onClick={() => openDialog('sessions')}
        aria-label="Manage sessions"
        title="Manage sessions: create, rename, delete"
        data-testid="sessions-button"
      >
        <FolderCog size={15} aria-hidden="true" />
      </button>
    </div>
  );
}
