import { StudioApiError } from '../../shared/api/errors';
import { SECRET_MASK } from '../../shared/api/security.schema';
import type { ResolvedKey } from '../../shared/settings/settings-lookup';
import { readJsonFile, writeJsonFileAtomic } from './json-file';
import { parseAssignment, type LoadedSettings } from './loaded-settings';
import { assignKey, SettingsError, type Assignment } from './settings-sources';

const API_SOURCE = { kind: 'flag', name: 'settings.set' } as const;

/** A setting checked as `settings.set` received it: its row, full key and parsed value. */
export interface CheckedSetting {
  key: string;
  resolved: ResolvedKey;
  value: unknown;
  /** What settings.json gets: the value as written when the schema reads it so (`"30s"`), else the parsed one. */
  stored: unknown;
}

/** Checks a key and value sent to `settings.set`; BAD_INPUT names the key (with the nearest known one) or the value. */
export function checkSetting(key: string, value: unknown): CheckedSetting {
  let assignment: Assignment;
  try {
    assignment = assignKey(key, value, API_SOURCE, true);
  } catch (error) {
    throw new StudioApiError('BAD_INPUT', (error as Error).message, 'key');
  }
  try {
    const parsed = parseAssignment(assignment);
    const stored = assignment.resolved.row.spec.value.schema.safeParse(value).success ? value : parsed;
    return { key: assignment.key, resolved: assignment.resolved, value: parsed, stored };
  } catch (error) {
    if (error instanceof SettingsError) throw new StudioApiError('BAD_INPUT', error.message, 'value');
    throw error;
  }
}

/**
 * The settings file as `settings.set` writes it (CFG-01): a restart setting is written to
 * `<data>/settings.json` atomically (temp file, fsync, rename) and remembered as pending until the next
 * start. It is the engine's `SettingsWriter`: SetSetting commands reach it after the reviewers.
 */
export class SettingsFile {
  private readonly pending = new Map<string, unknown>();

  constructor(private readonly loaded: LoadedSettings) {}

  /** The value saved for the next start, if any. */
  pendingValue(key: string): { value: unknown } | undefined {
    return this.pending.has(key) ? { value: this.pending.get(key) } : undefined;
  }

  /** Keys with a pending value, for families whose new members no source set yet. */
  pendingKeys(): string[] {
    return [...this.pending.keys()];
  }

  async write(key: string, value: unknown): Promise<{ value: unknown; audit: unknown }> {
    const checked = checkSetting(key, value);
    const { spec } = checked.resolved.row;
    if (spec.apply === 'live') throw new StudioApiError('BAD_INPUT', `${checked.key} applies live: change it with settings.set, which sends SetLimits`, 'key');
    const file = this.loaded.file;
    if (!file)
      throw new StudioApiError(
        'CONFLICT',
        `${checked.key} applies at the next start, and without a data folder there is no settings.json to keep it in`,
        'key',
      );
    const content = readJsonFile(file) ?? {};
    if (typeof content !== 'object' || Array.isArray(content))
      throw new StudioApiError('CONFLICT', `${file} does not hold a JSON object; fix it by hand first`);
    writeJsonFileAtomic(file, { ...(content as Record<string, unknown>), [checked.key]: checked.stored });
    this.pending.set(checked.key, checked.value);
    const shown = spec.secret ? SECRET_MASK : checked.value;
    return { value: shown, audit: { key: checked.key, value: spec.secret ? SECRET_MASK : checked.stored } };
  }
}
