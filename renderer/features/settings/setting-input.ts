import { z } from 'zod';
import type { SettingEntry } from '../../../shared/api/settings.schema';
import { resolveSettingKey } from '../../../shared/settings/settings-lookup';
import type { SettingValue } from '../../../shared/settings/setting-values';

/** How a setting is edited on the Settings screen. */
export type EditorKind = 'switch' | 'choice' | 'text' | 'json';

/** What a typed value became: the value to send (as settings.json would hold it), or why it is refused. */
export type ParsedInput = { ok: true; value: unknown } | { ok: false; error: string };

function valueOf(key: string): SettingValue<unknown> | null {
  return resolveSettingKey(key)?.row.spec.value ?? null;
}

export function editorKind(entry: Pick<SettingEntry, 'key' | 'unit'>): EditorKind {
  if (entry.unit === 'boolean') return 'switch';
  if (entry.unit === 'choice') return 'choice';
  return entry.unit === 'json' ? 'json' : 'text';
}

/** The words a choice may be, from the table's schema. */
export function choicesOf(key: string): string[] {
  const schema = valueOf(key)?.schema;
  return schema instanceof z.ZodEnum ? schema.options.map(String) : [];
}

/** The text an editor starts from: the value as the seeds write it (`30s`, `10MiB`, `a, b`); empty for a secret. */
export function textOf(entry: SettingEntry): string {
  if (entry.secret || entry.value === undefined || entry.value === null) return '';
  if (entry.unit === 'json') return JSON.stringify(entry.value, null, 2);
  if (entry.unit === 'list') return Array.isArray(entry.value) ? entry.value.join(', ') : '';
  return entry.shown;
}

/**
 * Checks a typed value against the settings table's own schema (the one the host applies), so a bad value
 * is refused here, naming the setting, before anything is sent: text becomes a value as an environment
 * variable would (`10MiB`, `true`, comma lists, JSON), then the row's zod schema decides.
 */
export function parseInput(key: string, text: string): ParsedInput {
  const value = valueOf(key);
  if (!value) return { ok: false, error: `${key} is not a setting of this studio` };
  const raw = value.fromText(text);
  const parsed = value.schema.safeParse(raw);
  if (parsed.success) return { ok: true, value: raw };
  const issue = parsed.error.issues[0]!;
  if (issue.path.length) return { ok: false, error: `${key}.${issue.path.join('.')} ${issue.message}` };
  const message = issue.message.startsWith('must be') ? issue.message : `must be ${value.accepts}`;
  const got = text.length > 40 ? `${text.slice(0, 37)}...` : text;
  return { ok: false, error: `${key} ${message} (got "${got}")` };
}

/** A value shown as the seeds write it (`30s`), `unset` when there is none. */
export function shownDefault(entry: SettingEntry): string {
  if (entry.default === undefined || entry.default === null) return 'unset';
  return valueOf(entry.key)?.show(entry.default) ?? JSON.stringify(entry.default);
}

/** Where a value came from, in words: `default`, `settings.json`, `YUKTA_X`, `--set`, `changed live`. */
export function sourceLabel(source: SettingEntry['source']): string {
  switch (source.kind) {
    case 'default':
      return 'default';
    case 'file':
      return 'settings.json';
    case 'env':
      return source.name ?? 'environment';
    case 'flag':
      return '--set flag';
    case 'log':
      return 'changed live';
  }
}
