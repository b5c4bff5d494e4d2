import { Pencil, Trash2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { SECRET_MASK, SetSecretInput, type SecretInfo } from '../../../shared/api/security.schema';
import { confirmAction } from '../../components/confirm';
import { useSettings } from '../../store/settings-store';
import { ListingTable, RowAction, SectionNote } from './section-parts';
import type { SettingsActions } from './settings-actions';

/** The host's answer to the last set or replace, shown under the form (which a replace remounts). */
type Answer = { ok: boolean; text: string };

const FROM_ENV = 'Set in the environment (YUKTA_SECRET_<NAME>): change it there.';

/**
 * Secrets (SEC-02, STU-07): names and where each comes from, the value always the mask. Set a new one,
 * replace or delete a stored one; a value goes to the host and is never shown back (the field is cleared).
 */
export function SecretsSection({ actions, refusal }: { actions: SettingsActions; refusal: string | null }) {
  const secrets = useSettings((s) => s.secrets);
  const [replacing, setReplacing] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [answer, setAnswer] = useState<Answer | null>(null);
  const remove = async (name: string) => {
    const ok = await confirmAction({
      title: `Delete the secret "${name}"?`,
      message: `Nodes using decrypted:${name} fail until it is set again.`,
      confirmLabel: 'Delete secret',
      danger: true,
    });
    if (!ok) return;
    const outcome = await actions.deleteSecret(name);
    setError(outcome.ok ? null : `Deleting "${name}" refused: ${outcome.error}`);
  };
  return (
    <div className="settings-section" data-testid="settings-secrets">
      <p className="dialog-message">
        Nodes use a secret as <code>decrypted:name</code> in headers, URLs, bodies and environments; it is resolved only when the request is sent and masked as{' '}
        {SECRET_MASK} everywhere else.
      </p>
      <SectionNote kind="refused" text={secrets && 'refused' in secrets ? secrets.refused : null} testId="secrets-refused" />
      <SectionNote kind="error" text={error} testId="secrets-error" />
      {secrets &&
        'items' in secrets &&
        (secrets.items.length === 0 ? (
          <p className="empty-hint" data-testid="secrets-empty">
            No secret yet.
          </p>
        ) : (
          <SecretsTable secrets={secrets.items} refusal={refusal} onReplace={setReplacing} onDelete={(n) => void remove(n)} />
        ))}
      <SecretForm key={replacing ?? ''} actions={actions} refusal={refusal} name={replacing} onAnswer={setAnswer} onDone={() => setReplacing(null)} />
      {answer && (
        <p className={answer.ok ? 'field-hint setting-done' : 'field-error'} role={answer.ok ? 'status' : 'alert'} data-testid="secret-answer">
          {answer.text}
        </p>
      )}
    </div>
  );
}

function SecretsTable({
  secrets,
  refusal,
  onReplace,
  onDelete,
}: {
  secrets: SecretInfo[];
  refusal: string | null;
  onReplace: (name: string) => void;
  onDelete: (name: string) => void;
}) {
  return (
    <ListingTable testId="secrets-table" columns={['Name', 'Value', 'Source']}>
      {secrets.map((s) => {
        const blocked = refusal ?? (s.source === 'environment' ? FROM_ENV : null);
        return (
          <tr key={s.name} data-testid={`secret-${s.name}`}>
            <td>
              <code>decrypted:{s.name}</code>
            </td>
            <td data-testid={`secret-value-${s.name}`}>{s.value}</td>
            <td>{s.source === 'store' ? 'stored (encrypted)' : 'environment'}</td>
            <td>
              <RowAction icon={Pencil} label={`Replace ${s.name}`} blocked={blocked} onClick={() => onReplace(s.name)} testId={`secret-replace-${s.name}`} />
              <RowAction
                icon={Trash2}
                label={`Delete ${s.name}`}
                blocked={blocked}
                danger
                onClick={() => onDelete(s.name)}
                testId={`secret-delete-${s.name}`}
              />
            </td>
          </tr>
        );
      })}
    </ListingTable>
  );
}

type SecretFormProps = {
  actions: SettingsActions;
  refusal: string | null;
  name: string | null;
  onAnswer: (answer: Answer) => void;
  onDone: () => void;
};

/** The form's name and value checked with the contract's schema as they are typed, and sending them (the value emptied once sent). */
function useSecretForm({ actions, name: fixed, onAnswer, onDone }: SecretFormProps) {
  const [name, setName] = useState(fixed ?? '');
  const [value, setValue] = useState('');
  const [busy, setBusy] = useState(false);
  const checked = SetSecretInput.safeParse({ name: name.trim(), value });
  const issue = checked.success ? null : checked.error.issues[0]!;
  const problem =
    issue && name.trim() !== '' && (issue.path[0] === 'name' || value !== '')
      ? `${issue.path[0] === 'name' ? 'Secret name' : 'Value'}: ${issue.message}`
      : null;
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!checked.success) return;
    setBusy(true);
    const outcome = await actions.setSecret(checked.data.name, checked.data.value);
    setBusy(false);
    // The value leaves the page's state either way: it is never kept, nor shown back.
    setValue('');
    onAnswer(
      outcome.ok
        ? { ok: true, text: `Saved "${checked.data.name}": its value is never shown back.` }
        : { ok: false, text: `Saving "${checked.data.name}" refused: ${outcome.error}` },
    );
    if (outcome.ok && fixed === null) setName('');
    if (outcome.ok) onDone();
  };
  return { name, setName, value, setValue, busy, problem, nameInvalid: problem !== null && issue?.path[0] === 'name', ready: checked.success, submit };
}

/** Sets a secret (a new name) or replaces one (`name` given); the value field is a password field, emptied once sent. */
function SecretForm(props: SecretFormProps) {
  const { refusal, name: fixed, onDone } = props;
  const { name, setName, value, setValue, busy, problem, nameInvalid, ready, submit } = useSecretForm(props);
  const off = refusal !== null || busy;
  return (
    <form className="settings-create" onSubmit={(e) => void submit(e)} aria-label={fixed ? `Replace ${fixed}` : 'Set a secret'} data-testid="secret-form">
      <h3 className="section-title">{fixed ? `Replace "${fixed}"` : 'Set a secret'}</h3>
      <div className="setting-editor">
        <input
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder="name, e.g. openai"
          aria-label="Secret name"
          disabled={off || fixed !== null}
          aria-invalid={nameInvalid}
          data-testid="secret-name"
        />
        <input
          type="password"
          value={value}
          onChange={(e) => setValue(e.target.value)}
          placeholder="value"
          autoComplete="new-password"
          aria-label="Secret value"
          disabled={off}
          data-testid="secret-value"
          {...(fixed ? { 'data-autofocus': true } : {})}
        />
        <button type="submit" className="button small primary" disabled={off || !ready} data-testid="secret-save">
          {fixed ? 'Replace' : 'Save secret'}
        </button>
        {fixed && (
          <button type="button" className="button small" onClick={onDone} data-testid="secret-replace-cancel">
            Cancel
          </button>
        )}
      </div>
      {problem && (
        <span className="field-error" role="alert" data-testid="secret-problem">
          {problem}
        </span>
      )}
    </form>
  );
}
