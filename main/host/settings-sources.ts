import { assertNever } from '../../shared/assert-never';
import {
  keyOf,
  looksLikeSettingEnv,
  nearestSettingEnv,
  nearestSettingKey,
  resolveSettingEnv,
  resolveSettingKey,
  type ResolvedKey,
} from '../../shared/settings/settings-lookup';
import { readJsonFile } from './json-file';

/** Where a setting's value comes from (CFG-01); `log` is a scheduler limit changed live (ADM-03). */
export type SettingSourceKind = 'default' | 'file' | 'env' | 'flag' | 'log';

export interface SettingSource {
  kind: SettingSourceKind;
  /** The file path, the environment variable, `--set`, or the logged change. */
  name?: string;
}

/** A refused setting: one line naming the key, its source and, for an unknown key, the nearest known one. */
export class SettingsError extends Error {
  override readonly name = 'SettingsError';
}

/** One value a source gives one key, not parsed yet. */
export interface Assignment {
  /** The full key (`yukta.llm.rate-limit.openai` for a family member). */
  key: string;
  resolved: ResolvedKey;
  raw: unknown;
  /** Written as text (environment, flag): the row's `fromText` reads it first. */
  text: boolean;
  source: SettingSource;
}

/** How a source is named in a refusal: `settings file /x/settings.json`, `environment variable YUKTA_X`, `flag --set`. */
export function describeSource(source: SettingSource): string {
  switch (source.kind) {
    case 'file':
      return `settings file ${source.name ?? ''}`.trim();
    case 'env':
      return `environment variable ${source.name ?? ''}`.trim();
    case 'flag':
      return source.name === '--set' ? 'flag --set' : (source.name ?? 'flag');
    case 'log':
      return `the execution log (${source.name ?? 'SetLimits'})`;
    case 'default':
      return 'the default';
    default:
      return assertNever(source.kind, 'setting source');
  }
}

function unknownKey(key: string, where: string): SettingsError {
  return new SettingsError(`unknown setting "${key}" in ${where}: did you mean ${nearestSettingKey(key)}?`);
}

/** The assignment of one key as written by a user, refusing an unknown key or a planned one. */
export function assignKey(key: string, raw: unknown, source: SettingSource, text = false): Assignment {
  const resolved = resolveSettingKey(key);
  if (!resolved) throw unknownKey(key, describeSource(source));
  if (resolved.row.spec.planned)
    throw new SettingsError(`setting "${key}" in ${describeSource(source)} is not supported yet: ${resolved.row.spec.card} is planned`);
  return { key: keyOf(resolved), resolved, raw, text, source };
}

/**
 * A JSON object of settings (settings.json, or the host option of tests): flat keys, and for a family
 * either flat member keys or its record (`"yukta.llm.rate-limit": {"openai": 60}`).
 */
export function objectAssignments(object: Record<string, unknown>, source: SettingSource): Assignment[] {
  const out: Assignment[] = [];
  for (const [key, raw] of Object.entries(object)) {
    const family = resolveSettingKey(`${key}.x`)?.row;
    if (family?.key === key && raw !== null && typeof raw === 'object' && !Array.isArray(raw)) {
      for (const [member, value] of Object.entries(raw)) {
        const name = family.spec.family!.recordKey === 'key' ? member : `${key}.${member}`;
        out.push(assignKey(name, value, source));
      }
    } else {
      out.push(assignKey(key, raw, source));
    }
  }
  return out;
}

/** `<data>/settings.json`: a JSON object of `yukta.*` keys; none when the file does not exist. */
export function fileAssignments(path: string): Assignment[] {
  let content: unknown;
  try {
    content = readJsonFile(path);
  } catch (error) {
    throw new SettingsError((error as Error).message);
  }
  if (content === null) return [];
  if (typeof content !== 'object' || Array.isArray(content)) throw new SettingsError(`settings file ${path} must hold a JSON object of yukta.* keys`);
  return objectAssignments(content as Record<string, unknown>, { kind: 'file', name: path });
}

/**
 * `YUKTA_*` variables naming settings. A variable that names none but looks like a misspelt one (in a
 * settings namespace, or two edits from one) is refused; `YUKTA_SECRET_*`, `YUKTA_VAR_*` and others are not settings.
 */
export function envAssignments(env: Readonly<Record<string, string | undefined>>): Assignment[] {
  const out: Assignment[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined || !name.startsWith('YUKTA_')) continue;
    const resolved = resolveSettingEnv(name);
    const source: SettingSource = { kind: 'env', name };
    if (!resolved) {
      if (looksLikeSettingEnv(name))
        throw new SettingsError(`unknown setting variable ${name} in the environment: did you mean ${nearestSettingEnv(name).name}?`);
      continue;
    }
    // An empty variable is unset, as shells write `YUKTA_X=` to clear one.
    if (value === '') continue;
    out.push(assignKey(keyOf(resolved), value, source, true));
  }
  return out;
}

/** `--set key=value` flags, in order (a later one wins). */
export function flagAssignments(flags: readonly string[]): Assignment[] {
  return flags.map((flag) => {
    const at = flag.indexOf('=');
    if (at <= 0) throw new SettingsError(`flag --set "${flag}" must be written key=value, e.g. --set yukta.execution.max-concurrent=4`);
    return assignKey(flag.slice(0, at).trim(), flag.slice(at + 1), { kind: 'flag', name: '--set' }, true);
  });
}
