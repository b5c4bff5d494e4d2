import type { SettingEntry } from '../../../shared/api/settings.schema';
import { settingRow } from '../../../shared/settings/settings-lookup';
import { SettingRow } from './SettingRow';
import { FamilyAdder, type Refusal } from './SettingsList';
import type { SettingsActions } from './settings-actions';

/**
 * Variables (SEC-02): the names `${env.X}` and `${sys.x}` may read beyond the built-in list, and the
 * `yukta.var.*` values (`${sys.yukta.var.region}`), with a form to add one.
 */
export function VariablesSection({ entries, actions, refusal }: { entries: SettingEntry[]; actions: SettingsActions; refusal: Refusal }) {
  const allowed = entries.find((e) => e.key === 'yukta.variables.allowed');
  const values = entries.filter((e) => e.key.startsWith('yukta.var.'));
  const family = settingRow('yukta.var');
  return (
    <div className="settings-section" data-testid="settings-variables">
      <p className="dialog-message">
        Templates read <code>${'{env.X}'}</code> only for <code>YUKTA_VAR_*</code>, a short list of harmless names (HOME, USER, PATH, LANG, TZ…) and the names
        allowed here; a name that looks like a secret stays blocked even when listed.
      </p>
      {allowed && <SettingRow entry={allowed} actions={actions} disabled={refusal(allowed)} />}
      <h3 className="section-title">Values</h3>
      {values.length === 0 && <p className="empty-hint">No yukta.var.* value yet.</p>}
      {values.map((entry) => (
        <SettingRow key={entry.key} entry={entry} actions={actions} disabled={refusal(entry)} />
      ))}
      <FamilyAdder row={family} actions={actions} disabled={refusal({ key: family.key, role: family.spec.role })} />
    </div>
  );
}
