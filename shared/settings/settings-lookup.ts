import { envNameOf, type SettingSpec, type SettingValueType } from './setting-spec';
import { SETTINGS, type SettingKey, type SettingsTable } from './settings-table';

/** Every setting as parsed: one value per row, a record per family (`yukta.llm.rate-limit` → `{openai: 60}`). */
export type SettingsValues = { -readonly [K in SettingKey]: SettingValueType<SettingsTable[K]> };

/** A row of the table with its key (for a family, the prefix). */
export interface SettingRow {
  readonly key: SettingKey;
  readonly spec: SettingSpec<unknown>;
  /** The environment variable (for a family, the prefix of its members' variables). */
  readonly env: string;
  /** How the key is written in docs: the key, or `prefix.<placeholder>` for a family. */
  readonly pattern: string;
}

function rowOf(key: SettingKey): SettingRow {
  const spec: SettingSpec<unknown> = SETTINGS[key];
  const pattern = spec.family ? `${key}.${spec.family.placeholder}` : key;
  return { key, spec, env: envNameOf(key), pattern };
}

/** The rows in table order. */
export const SETTING_ROWS: readonly SettingRow[] = (Object.keys(SETTINGS) as SettingKey[]).map(rowOf);
const BY_KEY = new Map<string, SettingRow>(SETTING_ROWS.map((r) => [r.key, r]));
const FAMILIES = SETTING_ROWS.filter((r) => r.spec.family);

export function isSettingKey(key: string): key is SettingKey {
  return BY_KEY.has(key);
}

export function settingRow(key: SettingKey): SettingRow {
  return BY_KEY.get(key)!;
}

/** What a key written by a user names: a row, or a member of a family; null when it names nothing. */
export interface ResolvedKey {
  readonly row: SettingRow;
  /** The family member (`openai` of `yukta.llm.rate-limit.openai`), absent for a plain row. */
  readonly member?: string;
}

/** Resolves a key as written in settings.json, a flag or `settings.set`. */
export function resolveSettingKey(key: string): ResolvedKey | null {
  const row = BY_KEY.get(key);
  if (row) return row.spec.family ? null : { row };
  for (const family of FAMILIES) {
    if (!key.startsWith(`${family.key}.`)) continue;
    const member = key.slice(family.key.length + 1);
    if (family.spec.family!.member.test(member)) return { row: family, member };
  }
  return null;
}

/** Resolves an environment variable name; null when it is not a setting's. */
export function resolveSettingEnv(name: string): ResolvedKey | null {
  for (const row of SETTING_ROWS) {
    if (!row.spec.family && row.env === name) return { row };
    if (row.spec.family?.fromEnv && name.startsWith(`${row.env}_`)) {
      const member = name.slice(row.env.length + 1).toLowerCase();
      if (row.spec.family.member.test(member)) return { row, member };
    }
  }
  return null;
}

/** The full key of a resolved name: the row's key, or `prefix.member`. */
export function keyOf(resolved: ResolvedKey): string {
  return resolved.member === undefined ? resolved.row.key : `${resolved.row.key}.${resolved.member}`;
}

/** Edit distance (insert, delete, substitute), for "did you mean". */
export function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length]!;
}

/** Candidate names for a misspelt key: every row, and each family with the unknown key's last segment. */
function keyCandidates(key: string): string[] {
  const last = key.slice(key.lastIndexOf('.') + 1);
  return SETTING_ROWS.map((r) => (r.spec.family ? `${r.key}.${last || r.spec.family.placeholder}` : r.key));
}

/** The known key nearest to an unknown one. */
export function nearestSettingKey(key: string): string {
  return nearest(key, keyCandidates(key));
}

/** The known environment variable nearest to an unknown `YUKTA_*` one, with the distance. */
export function nearestSettingEnv(name: string): { name: string; distance: number } {
  const suffix = name.slice(name.lastIndexOf('_') + 1);
  const candidates = SETTING_ROWS.filter((r) => !r.spec.family || r.spec.family.fromEnv).map((r) => (r.spec.family ? `${r.env}_${suffix}` : r.env));
  const best = nearest(name, candidates);
  return { name: best, distance: editDistance(name, best) };
}

function nearest(name: string, candidates: readonly string[]): string {
  let best = candidates[0]!;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const d = editDistance(name, candidate);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

/** `YUKTA_SECRET_*` and `YUKTA_VAR_*` are read by SEC-02 directly: never settings, never refused. */
const NOT_SETTINGS = ['YUKTA_SECRET_', 'YUKTA_VAR_'];
const NAMESPACES = [...new Set(SETTING_ROWS.filter((r) => !r.spec.family || r.spec.family.fromEnv).map((r) => `YUKTA_${envNameOf(r.key.split('.')[1]!)}_`))];

/**
 * Whether an environment variable that names no setting should still be refused as a misspelt one: it sits
 * in a settings namespace (`YUKTA_EXECUTION_…`), or is within two edits of a setting's variable.
 */
export function looksLikeSettingEnv(name: string): boolean {
  if (!name.startsWith('YUKTA_') || NOT_SETTINGS.some((p) => name.startsWith(p))) return false;
  return NAMESPACES.some((p) => name.startsWith(p)) || nearestSettingEnv(name).distance <= 2;
}
