import { Search } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import type { SettingEntry } from '../../../shared/api/settings.schema';
import { SETTING_GROUPS } from '../../../shared/settings/setting-spec';
import { SETTING_ROWS, type SettingRow as TableRow } from '../../../shared/settings/settings-lookup';
import { parseInput } from './setting-input';
import { SettingRow } from './SettingRow';
import type { SettingsActions } from './settings-actions';

/** Why a setting is not editable here, or null: the caller's role, or a reason of the screen (`blocked`). */
export type Refusal = (setting: Pick<SettingEntry, 'key' | 'role'>) => string | null;

/** Every setting the host lists, under the table's groups, with a filter on key and description. */
export function SettingsList({ entries, actions, refusal }: { entries: SettingEntry[]; actions: SettingsActions; refusal: Refusal }) {
  const [filter, setFilter] = useState('');
  const words = filter.trim().toLowerCase();
  const matches = (e: SettingEntry) => !words || e.key.toLowerCase().includes(words) || e.description.toLowerCase().includes(words);
  const shown = entries.filter(matches);
  return (
    <div className="settings-list">
      <label className="palette-search settings-filter">
        <Search size={14} aria-hidden="true" />
        <input
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          placeholder="Filter settings"
          aria-label="Filter settings"
          data-testid="settings-filter"
          data-autofocus
        />
      </label>
      {shown.length === 0 && <p className="empty-hint">No setting matches “{filter}”.</p>}
      {SETTING_GROUPS.map((group) => {
        const inGroup = shown.filter((e) => e.group === group);
        const families = words ? [] : familiesOf(group);
        if (inGroup.length === 0 && families.length === 0) return null;
        return (
          <section key={group} className="settings-group" aria-label={group} data-testid={`settings-group-${group}`}>
            <h3 className="section-title">{group}</h3>
            {inGroup.map((entry) => (
              <SettingRow key={entry.key} entry={entry} actions={actions} disabled={refusal(entry)} />
            ))}
            {families.map((row) => (
              <FamilyAdder key={row.key} row={row} actions={actions} disabled={refusal({ key: row.key, role: row.spec.role })} />
            ))}
          </section>
        );
      })}
    </div>
  );
}

/** The table's pattern families (`yukta.var.*`, `yukta.llm.rate-limit.<provider>`) of a group, built ones only. */
export function familiesOf(group: string): TableRow[] {
  return SETTING_ROWS.filter((r) => r.spec.family && !r.spec.planned && r.spec.group === group);
}

/** The adder's name and value, both checked by the table as they are typed, and saving the member. */
function useFamilyAdder(row: TableRow, actions: SettingsActions) {
  const [member, setMember] = useState('');
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [done, setDone] = useState<string | null>(null);
  const key = `${row.key}.${member.trim()}`;
  const memberProblem = member.trim() && !row.spec.family!.member.test(member.trim()) ? `${row.pattern}: "${member.trim()}" is not a valid name` : null;
  const parsed = member.trim() && !memberProblem && text !== '' ? parseInput(key, text) : null;
  const problem = memberProblem ?? (parsed && !parsed.ok ? parsed.error : null);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!parsed?.ok) return;
    const outcome = await actions.setSetting(key, parsed.value);
    setError(outcome.ok ? null : outcome.error);
    setDone(outcome.ok ? `${key} saved: applies after a restart.` : null);
    if (!outcome.ok) return;
    setMember('');
    setText('');
  };
  return { member, setMember, text, setText, error, done, problem, ready: parsed?.ok === true, submit };
}

/** Adds a member to a family (`yukta.var.region` = `eu`): both the name and the value are checked by the table. */
export function FamilyAdder({ row, actions, disabled }: { row: TableRow; actions: SettingsActions; disabled: string | null }) {
  const { member, setMember, text, setText, error, done, problem, ready, submit } = useFamilyAdder(row, actions);
  const id = `family-${row.key}`;
  return (
    <form className="setting-row family-adder" onSubmit={(e) => void submit(e)} data-testid={id}>
      <div className="setting-head">
        <code className="setting-key">{row.pattern}</code>
        <span className="setting-badge">after restart</span>
      </div>
      <p className="setting-description">{row.spec.description}</p>
      <div className="setting-editor">
        <input
          value={member}
          onChange={(e) => setMember(e.target.value)}
          placeholder={row.spec.family!.placeholder === '*' ? 'name' : row.spec.family!.placeholder.replace(/[<>]/g, '')}
          aria-label={`${row.pattern} name`}
          disabled={disabled !== null}
          data-testid={`${id}-member`}
        />
        <input
          value={text}
          onChange={(e) => setText(e.target.value)}
          placeholder="value"
          aria-label={`${row.pattern} value`}
          disabled={disabled !== null}
          aria-invalid={problem !== null}
          data-testid={`${id}-value`}
        />
        <button type="submit" className="button small" disabled={disabled !== null || !ready} data-testid={`${id}-add`}>
          Add
        </button>
      </div>
      {problem && (
        <span className="field-error" role="alert">
          {problem}
        </span>
      )}
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
      {done && (
        <p className="field-hint setting-done" role="status">
          {done}
        </p>
      )}
      {disabled && <p className="field-hint setting-disabled">{disabled}</p>}
    </form>
  );
}
