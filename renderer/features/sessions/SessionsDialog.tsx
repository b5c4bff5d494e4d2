import { Check, Pencil, Trash2 } from 'lucide-react';
import { useEffect, useState, type FormEvent } from 'react';
import { DEFAULT_SESSION, identifierProblem } from '../../../shared/workflow/identifier';
import { confirmAction } from '../../components/confirm';
import { Dialog } from '../../components/Dialog';
import { useStudio } from '../../store/studio-store';
import type { SessionActions } from './session-actions';

/** Manage sessions (STU-07): create, rename and delete (with confirmation); refusals are shown here. */
export function SessionsDialog({ actions }: { actions: SessionActions }) {
  const sessions = useStudio((s) => s.sessions);
  const current = useStudio((s) => s.session);
  const [name, setName] = useState('');
  const [renaming, setRenaming] = useState<{ from: string; to: string } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const close = () => useStudio.getState().openDialog(null);
  // Sessions may have changed elsewhere (another window, the CLI): the dialog starts from a fresh list.
  useEffect(() => void actions.refreshSessions(), [actions]);

  const run = async (what: string, body: () => Promise<string | null>) => {
    const refusal = await body();
    setError(refusal ? `${what} refused: ${refusal}` : null);
    return refusal === null;
  };
  const create = async (e: FormEvent) => {
    e.preventDefault();
    const problem = identifierProblem(name);
    if (problem) return setError(`Session name ${problem}.`);
    if (await run(`Creating "${name}"`, () => actions.createSession(name))) setName('');
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

  return (
    <Dialog title="Sessions" onClose={close} testId="sessions-dialog" className="sessions-dialog">
      {error && (
        <p className="field-error" role="alert" data-testid="sessions-error">
          {error}
        </p>
      )}
      <ul className="sessions-list">
        {sessions.map((s) => (
          <li key={s.session} className="session-row" data-testid={`session-row-${s.session}`}>
            {renaming?.from === s.session ? (
              <form className="session-rename" onSubmit={(e) => void rename(e)}>
                <input value={renaming.to} onChange={(e) => setRenaming({ from: s.session, to: e.target.value })} aria-label={`New name for ${s.session}`} data-testid="session-rename-input" data-autofocus />
                <button type="submit" className="icon-button" aria-label="Apply the new name" data-testid="session-rename-submit">
                  <Check size={14} aria-hidden="true" />
                </button>
              </form>
            ) : (
              <span className="session-name">
                {s.session}
                {s.session === current && <span className="version-current">open</span>}
              </span>
            )}
            <span className="field-hint">{s.workflowCount} workflow(s)</span>
            <button type="button" className="icon-button" disabled={s.session === DEFAULT_SESSION} title={s.session === DEFAULT_SESSION ? 'The default session cannot be renamed' : undefined} onClick={() => setRenaming({ from: s.session, to: s.session })} aria-label={`Rename ${s.session}`} data-testid={`session-rename-${s.session}`}>
              <Pencil size={13} aria-hidden="true" />
            </button>
            <button type="button" className="icon-button danger" disabled={s.session === DEFAULT_SESSION} title={s.session === DEFAULT_SESSION ? 'The default session cannot be deleted' : undefined} onClick={() => void remove(s.session)} aria-label={`Delete ${s.session}`} data-testid={`session-delete-${s.session}`}>
              <Trash2 size={13} aria-hidden="true" />
            </button>
          </li>
        ))}
      </ul>
      <form className="session-create" onSubmit={(e) => void create(e)}>
        <input value={name} onChange={(e) => setName(e.target.value)} placeholder="new-session" aria-label="New session name" data-testid="session-create-input" spellCheck={false} />
        <button type="submit" className="button" data-testid="session-create-submit">
          Create
        </button>
      </form>
      <div className="dialog-actions">
        <button type="button" className="button" onClick={close} data-testid="sessions-close">
          Close
        </button>
      </div>
    </Dialog>
  );
}
