import { SCHEDULER_RUN, SETTINGS_RUN } from '../../shared/api/control.schema';
import { StudioApiError } from '../../shared/api/errors';
import { roleAllows, type Caller } from '../../shared/api/roles';
import { LIMIT_SETTING_NAMES, type SchedulerLimits } from '../../shared/api/scheduler.schema';
import { SECRET_MASK } from '../../shared/api/security.schema';
import type { SetSettingResult, SettingEntry, SettingsView } from '../../shared/api/settings.schema';
import { resolveSettingKey, SETTING_ROWS, type SettingRow } from '../../shared/settings/settings-lookup';
import type { Engine } from '../../engine/index';
import type { LoadedSettings } from './loaded-settings';
import { checkSetting, type SettingsFile } from './settings-file';
import type { SettingSource } from './settings-sources';

/** The scheduler field of each limit's key (ADM-01). */
const LIMIT_FIELD = new Map<string, keyof SchedulerLimits>(Object.entries(LIMIT_SETTING_NAMES).map(([field, key]) => [key, field as keyof SchedulerLimits]));

export interface SettingsServiceOptions {
  loaded: LoadedSettings;
  file: SettingsFile;
  engine: Engine;
  /** The host's data folder, shown by the Settings screen (STU-07). */
  dataDir: string | null;
}

/**
 * `settings.get` and `settings.set` (CFG-01). Scheduler limits are read from the scheduler and changed with a
 * SetLimits command (live, recorded in the log, ADM-03); every other setting applies at the next start and
 * is saved with a SetSetting command. Both pass the reviewers and the audit of the control pipeline.
 */
export class SettingsService {
  constructor(private readonly options: SettingsServiceOptions) {}

  async view(): Promise<SettingsView> {
    const { engine, loaded, file } = this.options;
    const change = await engine.schedulerLimitsChange(); // waits for the logged limits to be re-applied
    const limits = engine.schedulerLimits();
    const logged: SettingSource | null = change ? { kind: 'log', name: `SetLimits by ${change.actor} at ${new Date(change.at).toISOString()}` } : null;
    const byKey: Readonly<Record<string, unknown>> = loaded.values;
    const settings: SettingEntry[] = [];
    for (const row of SETTING_ROWS) {
      if (row.spec.planned) continue;
      if (row.spec.family) {
        const members = new Set([...loaded.membersOf(row.key), ...file.pendingKeys().filter((k) => k.startsWith(`${row.key}.`))]);
        for (const key of [...members].sort()) settings.push(this.entry(row, key, memberValue(row, key, byKey[row.key]), loaded.source(key)));
        continue;
      }
      const field = LIMIT_FIELD.get(row.key);
      if (field) settings.push(this.entry(row, row.key, limits[field], logged ?? loaded.source(row.key)));
      else settings.push(this.entry(row, row.key, byKey[row.key], loaded.source(row.key)));
    }
    return { dataDir: this.options.dataDir, file: loaded.file, settings };
  }

  async set(key: string, value: unknown, caller: Caller): Promise<SetSettingResult> {
    const checked = checkSetting(key, value);
    const { row } = checked.resolved;
    if (!roleAllows(caller.role, row.spec.role))
      throw new StudioApiError('FORBIDDEN', `${checked.key} needs role ${row.spec.role}; ${caller.actor} has ${caller.role}`, 'key');
    const field = LIMIT_FIELD.get(row.key);
    const control = this.options.engine.control;
    if (field) await control.send(SCHEDULER_RUN, { type: 'SetLimits', limits: { [field]: checked.value } }, caller.actor);
    else await control.send(SETTINGS_RUN, { type: 'SetSetting', key: checked.key, value }, caller.actor);
    const setting = (await this.view()).settings.find((s) => s.key === checked.key)!;
    return { key: checked.key, applied: field ? 'now' : 'after-restart', setting };
  }

  private entry(row: SettingRow, key: string, value: unknown, source: SettingSource): SettingEntry {
    const { spec } = row;
    const shown = (v: unknown): string => (spec.secret ? (isSet(v) ? SECRET_MASK : 'unset') : v === undefined ? 'unset' : spec.value.show(v));
    const entry: SettingEntry = {
      key,
      value: spec.secret ? (isSet(value) ? SECRET_MASK : null) : value,
      shown: shown(value),
      default: spec.default,
      source,
      apply: spec.apply,
      role: spec.role,
      group: spec.group,
      unit: spec.value.unit,
      env: !row.spec.family ? row.env : row.spec.family.fromEnv ? `${row.env}_${key.slice(row.key.length + 1).toUpperCase()}` : '',
      card: spec.card,
      description: spec.description,
      secret: spec.secret ?? false,
    };
    const pending = this.options.file.pendingValue(key);
    if (pending) {
      const overridden = source.kind === 'env' || source.kind === 'flag';
      entry.pending = { value: spec.secret ? SECRET_MASK : pending.value, shown: shown(pending.value), ...(overridden ? { overriddenBy: source } : {}) };
    }
    return entry;
  }
}

function isSet(value: unknown): boolean {
  return value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0);
}

/** A family member's value from the family's record (keyed by member or by full key). */
function memberValue(row: SettingRow, key: string, record: unknown): unknown {
  const values = (record ?? {}) as Readonly<Record<string, unknown>>;
  const resolved = resolveSettingKey(key);
  return row.spec.family!.recordKey === 'key' ? values[key] : values[resolved?.member ?? ''];
}
