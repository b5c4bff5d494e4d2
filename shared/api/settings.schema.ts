import { z } from 'zod';
import { SETTING_GROUPS } from '../settings/setting-spec';
import { Role } from './roles';

/** Where a value comes from (CFG-01): precedence flag > env > file > default; `log` is a scheduler limit changed live (ADM-03). */
export const SettingSourceKind = z.enum(['default', 'file', 'env', 'flag', 'log']);
export type SettingSourceKind = z.infer<typeof SettingSourceKind>;

export const SettingSourceView = z.object({
  kind: SettingSourceKind,
  /** The file path, the environment variable, `--set`, or who changed a limit live and when. */
  name: z.string().optional(),
});

/** One setting as `settings.get` shows it; a secret's value is never returned (masked when set). */
export const SettingEntry = z.object({
  key: z.string(),
  /** The value in force (durations in ms, sizes in bytes), or the mask for a secret that is set. */
  value: z.unknown(),
  /** The value as written in the seeds: `30s`, `10MiB`, `QUEUE`. */
  shown: z.string(),
  default: z.unknown(),
  source: SettingSourceView,
  apply: z.enum(['live', 'restart']),
  role: Role,
  group: z.enum(SETTING_GROUPS),
  unit: z.string(),
  env: z.string(),
  card: z.string(),
  description: z.string(),
  secret: z.boolean(),
  /** A restart setting saved by `settings.set`: in settings.json, applied at the next start. */
  pending: z
    .object({
      value: z.unknown(),
      shown: z.string(),
      /** A source that will still win over settings.json at the next start (an environment variable or flag). */
      overriddenBy: SettingSourceView.optional(),
    })
    .optional(),
});
export type SettingEntry = z.infer<typeof SettingEntry>;

export const SettingsView = z.object({
  /** The host's data folder (definitions, logs, keys, secrets, settings.json); null for a host without one. */
  dataDir: z.string().nullable(),
  /** `<data>/settings.json`, or null without a data folder (then `settings.set` can change live settings only). */
  file: z.string().nullable(),
  settings: z.array(SettingEntry),
});
export type SettingsView = z.infer<typeof SettingsView>;

/** `settings.set`: a key and its value as settings.json would hold it (`"30s"`, `4`, `true`). */
export const SetSettingInput = z.strictObject({ key: z.string().min(1).max(256), value: z.unknown() });
export type SetSettingInput = z.infer<typeof SetSettingInput>;

export const SetSettingResult = z.object({
  key: z.string(),
  /** `now` for a live setting; `after-restart` for one saved to settings.json. */
  applied: z.enum(['now', 'after-restart']),
  setting: SettingEntry,
});
export type SetSettingResult = z.infer<typeof SetSettingResult>;
