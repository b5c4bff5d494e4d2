import type { Role } from '../api/roles';
import type { SettingValue } from './setting-values';

/** When a changed value takes effect: at once (`live`), or at the next start (`restart`). */
export type SettingApply = 'live' | 'restart';

/** Sections of the Settings screen (STU-07) and of the reference page's table. */
export const SETTING_GROUPS = [
  'Admission',
  'Definitions',
  'Control plane',
  'Tracker',
  'Durability',
  'Security',
  'Execution safety',
  'HTTP API',
  'LLM',
  'Scale-out',
] as const;
export type SettingGroup = (typeof SETTING_GROUPS)[number];

/** A pattern family such as `yukta.llm.rate-limit.<provider>`: one key per member, gathered into a record. */
export interface SettingFamily {
  /** How the member is written in docs: `<provider>`, `*`. */
  readonly placeholder: string;
  /** What a member name may be. */
  readonly member: RegExp;
  /** Record keys: the member alone (`openai`) or the whole key (`yukta.var.region`). */
  readonly recordKey: 'member' | 'key';
  /** Environment variables `<env>_<MEMBER>` set members (the member lower-cased); false when none do. */
  readonly fromEnv: boolean;
}

/**
 * One row of the settings table (CFG-01). The key is the table's property name (for a family, its prefix).
 * A `planned` setting belongs to a feature not built yet: it is listed so the name is reserved and
 * documented, and refused at start-up rather than silently ignored.
 */
export interface SettingSpec<T = unknown> {
  readonly value: SettingValue<T>;
  /** The value when no source sets it; undefined leaves it unset (the code's fallback is in the description). */
  readonly default: T | undefined;
  readonly apply: SettingApply;
  /** Who may change it with `settings.set`. */
  readonly role: Role;
  readonly group: SettingGroup;
  /** The SPEC card that defines what it does. */
  readonly card: string;
  readonly description: string;
  /** Never returned in clear by `settings.get` (API keys, secrets). */
  readonly secret?: boolean;
  readonly family?: SettingFamily;
  readonly planned?: boolean;
}

/** A row with a default. */
export type DefaultedSetting<T> = SettingSpec<T> & { readonly default: T; readonly family?: undefined };
/** A row unset by default (the code's fallback is in its description). */
export type OptionalSetting<T> = SettingSpec<T> & { readonly default: undefined; readonly family?: undefined };
/** A pattern family (`yukta.llm.rate-limit.<provider>`): members gathered into a record. */
export type FamilySetting<T> = SettingSpec<T> & { readonly default: undefined; readonly family: SettingFamily };

type RowSpec<T> = Omit<SettingSpec<T>, 'default' | 'family'>;

/** Builds a row with a default; the generic ties the default to the value's type. */
export function setting<T>(spec: RowSpec<T> & { default: T }): DefaultedSetting<T> {
  return spec;
}

/** Builds a row that is unset unless a source sets it. */
export function optionalSetting<T>(spec: RowSpec<T>): OptionalSetting<T> {
  return { ...spec, default: undefined };
}

/** Builds a pattern family. */
export function familySetting<T>(spec: RowSpec<T> & { family: SettingFamily }): FamilySetting<T> {
  return { ...spec, default: undefined };
}

/** The parsed value type of a row: a record for a family, possibly undefined for an optional row. */
export type SettingValueType<S> =
  S extends FamilySetting<infer T> ? Record<string, T> : S extends OptionalSetting<infer T> ? T | undefined : S extends DefaultedSetting<infer T> ? T : never;

/** Environment name of a key: `yukta.process.enabled` → `YUKTA_PROCESS_ENABLED`. */
export function envNameOf(key: string): string {
  return key.toUpperCase().replace(/[.-]/g, '_');
}
