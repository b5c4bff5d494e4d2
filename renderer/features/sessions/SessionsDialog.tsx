import { Check, Pencil, Trash2 } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import type { SessionSummary } from '../../../shared/api/sessions.schema';
import { DEFAULT_SESSION, identifierProblem } from '../../../shared/workflow/identifier';
import { confirmAction } from '../../components/confirm';
import { Dialog } from '../../components/Dialog';
import { useStudio } from '../../store/studio-store';
import type { SessionActions } from './session-actions';

/** Manage sessions (STU-07): create, rename and delete (with confirmation); refusals are shown here. */
export function SessionsDialog({ actions }: { actions: SessionActions }) {
  const sessions = useStudio((s) => s.sessions);
  const current = useStudio((s) => s.session);
  const { error, renaming, setRenaming, create, rename, remove } = useSessionEdits(actions, current);
  const close = () => useStudio.getState().openDialog(null);
  // Sessions may have changed elsewhere (another window, the CLI): the dialog starts from a fresh list.
  useEffect(() => void actions.refreshSessions(), [actions]);

  return (
    <Dialog title="Sessions" onClose={close} testId="sessions-dialog" className="sessions-dialog">
      {error && (
        <p className="field-error" role="alert" data-testid="sessions-error">
          {error}
        </p>
      )}
      <ul className="sessions-list">
        {sessions.map((s) => (
          <SessionRow
            key={s.session}
            summary={s}
            open={s.session === current}
            renamingTo={renaming?.from === s.session ? renaming.to : null}
            onRenameDraft={(to) => setRenaming({ from: s.session, to })}
            onRename={(e) => void rename(e)}
            onRemove={() => void remove(s.session)}
          />
        ))}
      </ul>
      <CreateSessionForm onCreate={create} />
      <div className="dialog-actions">
        <button type="button" className="button" onClick={close} data-testid="sessions-close">
          Close
        </button>
      </div>
    </Dialog>
  );
}

/** Create, rename (the row being renamed and its new name) and delete, with the last refusal to show. */
function useSessionEdits(actions: SessionActions, current: string) {
  const [renaming, setRenaming] = useState<{ from: string; to: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const run = async (what: string, body: () => Promise<string | null>) => {
    const refusal = await body();
    setError(refusal ? `${what} refused: ${refusal}` : null);
    return refusal === null;
  };
  const create = async (name: string) => {
    const problem = identifierProblem(name);
    if (problem) {
      setError(`Session name ${problem}.`);
      return false;
    }
    return run(`Creating "${name}"`, () => actions.createSession(name));
  };
  const rename = async (e: FormEvent) => {
    e.preventDefault();
    if (!renaming) return;
    const problem = identifierProblem(renaming.to);
    if (problem) return setError(`Session name ${problem}.`);
    if (await run(`Renaming "${renaming.from}"`, () => actions.renameSession(renaming.from, renaming.to))) setRenaming(null);
  };
  const remove = async (session: string) => {
    const ok = await confirmAction({
      title: `Delete session "${session}"?`,
      message: `Its workflows and their version history are deleted. This cannot be undone.${session === current ? ' It is the open session: a new workflow opens in "default".' : ''}`,
      confirmLabel: 'Delete session',
      danger: true,
    });
    if (ok) await run(`Deleting "${session}"`, () => actions.deleteSession(session));
  };

  return { error, renaming, setRenaming, create, rename, remove };
}

/** The new session's name; cleared once the session is made. */
function CreateSessionForm({ onCreate }: { onCreate(name: string): Promise<boolean> }) {
  const [name, setName] = useState('');
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (await onCreate(name)) setName('');
  };
  return (
    <form className="session-create" onSubmit={(e) => void submit(e)}>
      <input
        value={name}
        onChange={(e) => setName(e.target.value)}
        placeholder="new-session"
        aria-label="New session name"
        data-testid="session-create-input"
        spellCheck={false}
      />
      <button type="submit" className="button" data-testid="session-create-submit">
        Create
      </button>
    </form>
  );
}

type SessionRowProps = {
  summary: SessionSummary;
  /** It is the open session. */
  open: boolean;
  /** The new name typed while renaming this session, or null. */
  renamingTo: string | null;
  /** Starts renaming (with the current name) or changes the new name. */
  onRenameDraft(to: string): void;
  onRename(e: FormEvent): void;
  onRemove(): void;
};

/** A session: its name (or the rename field), its workflow count, Rename and Delete (never for default). */
function SessionRow({ summary: s, open, renamingTo, onRenameDraft, onRename, onRemove }: SessionRowProps) {
  return (
    <li className="session-row" data-testid={`session-row-${s.session}`}>
      {renamingTo !== null ? (
        <form className="session-rename" onSubmit={onRename}>
          <input
            value={renamingTo}
            onChange={(e) => onRenameDraft(e.target.value)}
            aria-label={`New name for ${s.session}`}
            data-testid="session-rename-input"
            data-autofocus
          />
          <button type="submit" className="icon-button" aria-label="Apply the new name" data-testid="session-rename-submit">
            <Check size={14} aria-hidden="true" />
          </button>
        </form>
      ) : (
        <span className="session-name">
          {s.session}
          {open && <span className="version-current">open</span>}
        </span>
      )}
      <span className="field-hint">{s.workflowCount} workflow(s)</span>
      <button
        type="button"
        className="icon-button"
        disabled={s.session === DEFAULT_SESSION}
        title={s.session === DEFAULT_SESSION ? 'The default session cannot be renamed' : undefined}
        onClick={() => onRenameDraft(s.session)}
        aria-label={`Rename ${s.session}`}
        data-testid={`session-rename-${s.session}`}
      >
        <Pencil size={13} aria-hidden="true" />
      </button>
      <button
        type="button"
        className="icon-button danger"
        disabled={s.session === DEFAULT_SESSION}
        title={s.session === DEFAULT_SESSION ? 'The default session cannot be deleted' : undefined}
        onClick={onRemove}
        aria-label={`Delete ${s.session}`}
        data-testid={`session-delete-${s.session}`}
      >
        <Trash2 size={13} aria-hidden="true" />
      </button>
    </li>
  );
}
