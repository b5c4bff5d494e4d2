import * as Switch from '@radix-ui/react-switch';
import { useState, type FormEvent } from 'react';
import type { SettingEntry } from '../../../shared/api/settings.schema';
import type { SettingsActions } from './settings-actions';
import { choicesOf, editorKind, parseInput, shownDefault, sourceLabel, textOf } from './setting-input';

/** What the row last heard from the host: applied, saved for the next start, or refused (naming the field). */
type Status = { kind: 'applied' | 'saved' | 'error'; text: string } | null;

/**
 * One setting (CFG-01): key, live or after restart, description, default, the value in force and its source,
 * a value saved for the next start, and an editor checked against the table's schema as the user types.
 * `disabled` is the reason the caller may not change it (its role, or a host that ignores it).
 */
export function SettingRow({ entry, actions, disabled }: { entry: SettingEntry; actions: SettingsActions; disabled: string | null }) {
  const [status, setStatus] = useState<Status>(null);
  const send = async (value: unknown): Promise<boolean> => {
    const outcome = await actions.setSetting(entry.key, value);
    if (!outcome.ok) setStatus({ kind: 'error', text: outcome.error });
    else if (outcome.value.applied === 'now') setStatus({ kind: 'applied', text: 'Applied now.' });
    else setStatus({ kind: 'saved', text: 'Saved to settings.json: applies after a restart.' });
    return outcome.ok;
  };
  const id = `setting-${entry.key}`;
  return (
    <div className="setting-row" data-testid={id} data-apply={entry.apply}>
      <SettingHead entry={entry} id={id} />
      <p className="setting-description">{entry.description}</p>
      <SettingMeta entry={entry} id={id} />
      <SettingEditor key={`${entry.shown}|${entry.pending?.shown ?? ''}`} entry={entry} disabled={disabled} onSend={send} onTyped={() => setStatus(null)} />
      {disabled && (
        <p className="field-hint setting-disabled" data-testid={`${id}-disabled`}>
          {disabled}
        </p>
      )}
      {status && (
        <p
          className={status.kind === 'error' ? 'field-error' : 'field-hint setting-done'}
          role={status.kind === 'error' ? 'alert' : 'status'}
          data-testid={`${id}-status`}
        >
          {status.text}
        </p>
      )}
    </div>
  );
}

/** The row's key and its badges: live or after restart, secret. */
function SettingHead({ entry, id }: { entry: SettingEntry; id: string }) {
  return (
    <div className="setting-head">
      <code className="setting-key" id={`${id}-label`}>
        {entry.key}
      </code>
      {entry.apply === 'live' ? (
        <span className="setting-badge is-live" title="Applied at once, recorded in the log">
          live
        </span>
      ) : (
        <span className="setting-badge" title="Saved to settings.json and applied at the next start" data-testid={`${id}-restart`}>
          after restart
        </span>
      )}
      {entry.secret && <span className="setting-badge">secret</span>}
    </div>
  );
}

/** The value in force, its source and default, and a value saved for the next start. */
function SettingMeta({ entry, id }: { entry: SettingEntry; id: string }) {
  return (
    <>
      <p className="setting-meta">
        <span>
          Current <strong data-testid={`${id}-current`}>{entry.shown}</strong>
        </span>
        <span data-testid={`${id}-source`} title={entry.source.name}>
          from {sourceLabel(entry.source)}
        </span>
        <span>default {entry.secret ? 'unset' : shownDefault(entry)}</span>
        {entry.env && <code className="muted">{entry.env}</code>}
      </p>
      {entry.pending && (
        <p className="setting-pending" data-testid={`${id}-pending`}>
          After restart: <strong>{entry.pending.shown}</strong>
          {entry.pending.overriddenBy && ` — but ${sourceLabel(entry.pending.overriddenBy)} still wins then`}
        </p>
      )}
    </>
  );
}

type EditorProps = { entry: SettingEntry; disabled: string | null; onSend: (value: unknown) => Promise<boolean>; onTyped: () => void };

/** The editor of one row: a switch, a choice, or text checked as it is typed (Apply or Enter sends it). */
function SettingEditor(props: EditorProps) {
  const kind = editorKind(props.entry);
  if (kind === 'switch') return <SwitchEditor {...props} />;
  if (kind === 'choice') return <ChoiceEditor {...props} />;
  return <TextEditor {...props} json={kind === 'json'} />;
}

/** What the editor shows, its label and test id, and sending a value (the editor is off while it is sent). */
function useEditor({ entry, disabled, onSend }: EditorProps) {
  const id = `setting-${entry.key}`;
  // The editor shows what the next start will use when a value is saved for it.
  const shown = entry.pending ? { ...entry, value: entry.pending.value, shown: entry.pending.shown } : entry;
  const [busy, setBusy] = useState(false);
  const send = async (value: unknown) => {
    setBusy(true);
    await onSend(value);
    setBusy(false);
  };
  const off = disabled !== null || busy;
  const labelled = { 'aria-labelledby': `${id}-label`, 'data-testid': `${id}-input` };
  return { id, shown, busy, send, off, labelled };
}

function SwitchEditor(props: EditorProps) {
  const { shown, send, off, labelled } = useEditor(props);
  return (
    <div className="setting-editor">
      <Switch.Root className="switch" checked={shown.value === true} disabled={off} onCheckedChange={(on) => void send(on)} {...labelled}>
        <Switch.Thumb className="switch-thumb" />
      </Switch.Root>
    </div>
  );
}

function ChoiceEditor(props: EditorProps) {
  const { shown, send, off, labelled } = useEditor(props);
  return (
    <div className="setting-editor">
      <select value={String(shown.value)} disabled={off} onChange={(e) => void send(e.target.value)} {...labelled}>
        {choicesOf(props.entry.key).map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
    </div>
  );
}

function TextEditor({ json, ...props }: EditorProps & { json: boolean }) {
  const { entry, onTyped } = props;
  const { id, shown, busy, send, off, labelled } = useEditor(props);
  const initial = textOf(shown);
  const [text, setText] = useState(initial);
  const parsed = text === initial ? null : parseInput(entry.key, text);
  const problem = parsed && !parsed.ok ? parsed.error : null;
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (parsed?.ok) void send(parsed.value);
  };
  const placeholder = entry.secret ? (entry.value === null ? 'unset: type a value' : '•••• is set: type a new value to replace it') : undefined;
  const change = (value: string) => {
    setText(value);
    onTyped();
  };
  return (
    <form className="setting-editor" onSubmit={submit}>
      {json ? (
        <textarea
          value={text}
          rows={entry.secret ? 2 : 4}
          spellCheck={false}
          disabled={off}
          placeholder={placeholder}
          onChange={(e) => change(e.target.value)}
          aria-invalid={problem !== null}
          {...labelled}
        />
      ) : (
        <input
          type={entry.secret ? 'password' : 'text'}
          value={text}
          spellCheck={false}
          autoComplete="off"
          disabled={off}
          placeholder={placeholder}
          onChange={(e) => change(e.target.value)}
          aria-invalid={problem !== null}
          {...labelled}
        />
      )}
      <button type="submit" className="button small" disabled={off || !parsed?.ok} data-testid={`${id}-apply`}>
        {busy ? 'Applying…' : 'Apply'}
      </button>
      {problem && (
        <span className="field-error" role="alert" data-testid={`${id}-error`}>
          {problem}
        </span>
      )}
    </form>
  );
}
