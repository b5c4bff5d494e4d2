import { join } from 'node:path';
import { SETTING_ROWS, type SettingsValues } from '../../shared/settings/settings-lookup';
import { joinPath } from '../../shared/workflow/validation-issue';
import {
  describeSource,
  envAssignments,
  fileAssignments,
  flagAssignments,
  objectAssignments,
  SettingsError,
  type Assignment,
  type SettingSource,
} from './settings-sources';

/** The host's settings file in the data folder: flat `yukta.*` keys, e.g. `{"yukta.process.enabled": true}`. */
export const SETTINGS_FILE = 'settings.json';

const DEFAULT_SOURCE: SettingSource = { kind: 'default' };
const HOST_OPTION: SettingSource = { kind: 'flag', name: 'host option' };

function isDefault(key: string, value: unknown): boolean {
  const row = SETTING_ROWS.find((r) => r.key === key);
  if (!row) return false;
  if (row.spec.family) return value !== null && typeof value === 'object' && Object.keys(value).length === 0;
  return JSON.stringify(value) === JSON.stringify(row.spec.default);
}

/** Parses one assignment with its row's schema; a bad value is refused naming the key, the source and what it accepts. */
export function parseAssignment(a: Assignment): unknown {
  const value = a.resolved.row.spec.value;
  const raw = a.text && typeof a.raw === 'string' ? value.fromText(a.raw) : a.raw;
  const parsed = value.schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const at = issue.path.length ? `${a.key}.${joinPath(issue.path)}` : a.key;
  const shown = typeof a.raw === 'string' ? `"${a.raw}"` : (JSON.stringify(a.raw) ?? String(a.raw));
  const detail = issue.path.length
    ? issue.message
    : `${issue.message.startsWith('must be') ? issue.message : `must be ${value.accepts}`} (got ${shown.length > 80 ? `${shown.slice(0, 77)}...` : shown})`;
  throw new SettingsError(`setting ${at} in ${describeSource(a.source)}: ${detail}`);
}

function defaults(): { values: Record<string, unknown>; sources: Map<string, SettingSource> } {
  const values: Record<string, unknown> = {};
  const sources = new Map<string, SettingSource>();
  for (const row of SETTING_ROWS) {
    values[row.key] = row.spec.family ? {} : row.spec.default;
    if (!row.spec.family) sources.set(row.key, DEFAULT_SOURCE);
  }
  return { values, sources };
}

/**
 * The settings in force (CFG-01): each key's value and where it came from. Layers are applied in order,
 * so a later one wins: default < file < environment < flag. Every value of every layer is parsed first,
 * so a bad one anywhere is refused, even when a later layer would have replaced it.
 */
export class LoadedSettings {
  private constructor(
    readonly values: SettingsValues,
    private readonly sourceOf: ReadonlyMap<string, SettingSource>,
    /** `<data>/settings.json`, or null without a data folder. */
    readonly file: string | null,
  ) {}

  static fromLayers(layers: ReadonlyArray<readonly Assignment[]>, file: string | null): LoadedSettings {
    const { values, sources } = defaults();
    for (const layer of layers) {
      for (const a of layer) {
        const value = parseAssignment(a);
        if (a.resolved.member === undefined) values[a.key] = value;
        else {
          const family = a.resolved.row;
          const recordKey = family.spec.family!.recordKey === 'key' ? a.key : a.resolved.member;
          values[family.key] = { ...(values[family.key] as Record<string, unknown>), [recordKey]: value };
        }
        sources.set(a.key, a.source);
      }
    }
    return new LoadedSettings(values as SettingsValues, sources, file);
  }

  /** Settings given as an object by the host's owner (tests): sources say `host option`. */
  static fromObject(object: Record<string, unknown>): LoadedSettings {
    return LoadedSettings.fromLayers([objectAssignments(object, HOST_OPTION)], null);
  }

  /** Parsed values given by the host's owner: a value other than the default has source `host option`. */
  static fromValues(values: SettingsValues | undefined): LoadedSettings {
    if (!values) return LoadedSettings.fromLayers([], null);
    const changed = Object.entries(values).filter(([key, value]) => !isDefault(key, value));
    return LoadedSettings.fromObject(Object.fromEntries(changed));
  }

  /** Where a key's value comes from (a family member's full key); `default` for one no source sets. */
  source(key: string): SettingSource {
    return this.sourceOf.get(key) ?? DEFAULT_SOURCE;
  }

  /** The family members any source set, as full keys. */
  membersOf(familyKey: string): string[] {
    return [...this.sourceOf.keys()].filter((k) => k.startsWith(`${familyKey}.`));
  }
}

export interface LoadSettingsOptions {
  /** The data folder holding settings.json; none reads no file. */
  dataDir: string | null;
  env?: Readonly<Record<string, string | undefined>>;
  /** `--set key=value` flags. */
  flags?: readonly string[];
}

/**
 * Reads `<data>/settings.json`, the `YUKTA_*` environment and `--set` flags, strictly: an unknown key, a
 * misspelt variable or a bad value throws a SettingsError whose one-line message names the key, its source
 * and the nearest known key.
 */
export function loadSettings(options: LoadSettingsOptions): LoadedSettings {
  const file = options.dataDir ? join(options.dataDir, SETTINGS_FILE) : null;
  const layers = [file ? fileAssignments(file) : [], envAssignments(options.env ?? {}), flagAssignments(options.flags ?? [])];
  return LoadedSettings.fromLayers(layers, file);
}
