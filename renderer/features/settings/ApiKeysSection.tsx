import { KeyRound, Trash2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { Role } from '../../../shared/api/roles';
import { CreateApiKeyInput, type ApiKeyInfo } from '../../../shared/api/security.schema';
import { confirmAction } from '../../components/confirm';
import { CopyButton } from '../../components/CopyButton';
import { useSettings } from '../../store/settings-store';
import { ListingTable, RowAction, SectionNote } from './section-parts';
import type { SettingsActions } from './settings-actions';

/** Where a configured key is removed instead of revoked here. */
const CONFIGURED_IN: Record<ApiKeyInfo['source'], string> = {
  settings: 'Configured in settings.json (yukta.api-key or yukta.api-keys): remove it there.',
  environment: 'Configured in the environment (YUKTA_API_KEY or YUKTA_API_KEYS): remove it there.',
  studio: '',
};

/**
 * API keys (SEC-01, STU-07): the keys with role, sessions, source and fingerprint (never a key); create one
 * (its value is shown this once, with Copy); revoke a studio key after a confirmation.
 */
export function ApiKeysSection({ actions, refusal }: { actions: SettingsActions; refusal: string | null }) {
  const keys = useSettings((s) => s.keys);
  const created = useSettings((s) => s.created);
  const [error, setError] = useState<string | null>(null);
  const revoke = async (name: string) => {
    const ok = await confirmAction({
      title: `Revoke the key "${name}"?`,
      message: 'Every client using it is refused from now on. This cannot be undone.',
      confirmLabel: 'Revoke key',
      danger: true,
    });
    if (!ok) return;
    const outcome = await actions.revokeKey(name);
    setError(outcome.ok ? null : `Revoking "${name}" refused: ${outcome.error}`);
  };
  return (
    <div className="settings-section" data-testid="settings-api-keys">
      <p className="dialog-message">
        Clients of the HTTP API and MCP present a key (Authorization: Bearer). A key’s role decides what it may do: VIEWER reads, OPERATOR also runs and
        controls, ADMIN everything.
      </p>
      {created && <CreatedKey />}
      <SectionNote kind="refused" text={keys && 'refused' in keys ? keys.refused : null} testId="api-keys-refused" />
      <SectionNote kind="error" text={error} testId="api-keys-error" />
      {keys &&
        'items' in keys &&
        (keys.items.length === 0 ? (
          <p className="empty-hint">No API key yet: the HTTP API then answers only this machine (localhost).</p>
        ) : (
          <KeysTable keys={keys.items} onRevoke={(name) => void revoke(name)} refusal={refusal} />
        ))}
      <CreateKeyForm actions={actions} refusal={refusal} />
    </div>
  );
}

/** The key just created, this once: after Done (or closing Settings) it is gone from the studio. */
function CreatedKey() {
  const created = useSettings((s) => s.created)!;
  return (
    <div className="created-key" role="status" data-testid="created-key">
      <p>
        <KeyRound size={14} aria-hidden="true" /> Key <strong>{created.name}</strong> ({created.role}) created. Copy it now: it is shown this once and never
        again.
      </p>
      <div className="setting-editor">
        <input
          readOnly
          value={created.key}
          className="code"
          aria-label={`The new key ${created.name}`}
          onFocus={(e) => e.currentTarget.select()}
          data-testid="created-key-value"
        />
        <CopyButton text={() => created.key} testId="created-key-copy" title="Copy the key" className="button small" size={13} />
        <button type="button" className="button small primary" onClick={() => useSettings.getState().setCreated(null)} data-testid="created-key-done">
          Done
        </button>
      </div>
    </div>
  );
}

function KeysTable({ keys, onRevoke, refusal }: { keys: ApiKeyInfo[]; onRevoke: (name: string) => void; refusal: string | null }) {
  return (
    <ListingTable testId="api-keys-table" columns={['Name', 'Role', 'Sessions', 'Source', 'Fingerprint']}>
      {keys.map((k) => (
        <tr key={k.name} data-testid={`api-key-${k.name}`}>
          <td>{k.name}</td>
          <td data-testid={`api-key-role-${k.name}`}>{k.role}</td>
          <td>{k.sessions ? k.sessions.join(', ') : 'all'}</td>
          <td>{k.source}</td>
          <td>
            <code>{k.fingerprint}</code>
          </td>
          <td>
            <RowAction
              icon={Trash2}
              label={`Revoke ${k.name}`}
              blocked={refusal ?? (CONFIGURED_IN[k.source] || null)}
              danger
              onClick={() => onRevoke(k.name)}
              testId={`api-key-revoke-${k.name}`}
            />
          </td>
        </tr>
      ))}
    </ListingTable>
  );
}

/** A refused field of the create form, named as the form labels it. */
function fieldProblem(issue: { path: PropertyKey[]; message: string }, sessions: string[]): string {
  const index = typeof issue.path[1] === 'number' ? issue.path[1] : -1;
  const field = issue.path[0] === 'sessions' ? (index >= 0 ? `Session "${sessions[index]}"` : 'Sessions') : 'Key name';
  return `${field}: ${issue.message}`;
}

/** The create form's fields, checked with the contract's own schema as they are typed, and sending the key. */
function useCreateKey(actions: SettingsActions) {
  const [name, setName] = useState('');
  const [role, setRole] = useState<Role>('VIEWER');
  const [sessions, setSessions] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const list = sessions
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const input = { name: name.trim(), role, ...(list.length ? { sessions: list } : {}) };
  const checked = CreateApiKeyInput.safeParse(input);
  const problem = name.trim() === '' || checked.success ? null : fieldProblem(checked.error.issues[0]!, list);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!checked.success || name.trim() === '') return;
    setBusy(true);
    const outcome = await actions.createKey(checked.data);
    setBusy(false);
    setError(outcome.ok ? null : `Creating "${input.name}" refused: ${outcome.error}`);
    if (!outcome.ok) return;
    setName('');
    setSessions('');
  };
  return { name, setName, role, setRole, sessions, setSessions, error, busy, problem, ready: checked.success && name.trim() !== '', submit };
}

/** Name, role and sessions, checked with the contract's own schema before anything is sent (disabled, the reason shown above, when the role may not). */
function CreateKeyForm({ actions, refusal }: { actions: SettingsActions; refusal: string | null }) {
  const { name, setName, role, setRole, sessions, setSessions, error, busy, problem, ready, submit } = useCreateKey(actions);
  const off = refusal !== null || busy;
  return (
    <form className="settings-create" onSubmit={(e) => void submit(e)} aria-label="Create an API key" data-testid="api-key-create">
      <h3 className="section-title">Create a key</h3>
      <div className="setting-editor">
        <input
          value={name}
          onChange={(e) => setName(e.target.value)}
          placeholder="name, e.g. ci-bot"
          aria-label="Key name"
          disabled={off}
          aria-invalid={problem !== null}
          data-testid="api-key-name"
        />
        <select value={role} onChange={(e) => setRole(Role.parse(e.target.value))} aria-label="Key role" disabled={off} data-testid="api-key-role">
          {Role.options.map((r) => (
            <option key={r} value={r}>
              {r}
            </option>
          ))}
        </select>
        <input
          value={sessions}
          onChange={(e) => setSessions(e.target.value)}
          placeholder="sessions (all when empty)"
          aria-label="Sessions the key may touch, comma-separated"
          disabled={off}
          data-testid="api-key-sessions"
        />
        <button type="submit" className="button small primary" disabled={off || !ready} data-testid="api-key-create-submit">
          Create key
        </button>
      </div>
      {problem && (
        <span className="field-error" role="alert" data-testid="api-key-create-problem">
          {problem}
        </span>
      )}
      <SectionNote kind="error" text={error} testId="api-key-create-error" />
    </form>
  );
}
