import { vi } from 'vitest';
import { StudioApiError } from '../../shared/api/errors';
import type { SetSettingResult, SettingEntry } from '../../shared/api/settings.schema';
import { resolveSettingKey, SETTING_ROWS } from '../../shared/settings/settings-lookup';

/**
 * `settings.get` / `settings.set` of the renderer's fake host (CFG-01), from the shared settings table: every
 * fixed, built setting at its default; a set live one changes at once, a restart one becomes pending.
 */
export function createFakeSettings() {
  const entries: SettingEntry[] = SETTING_ROWS.filter((r) => !r.spec.planned && !r.spec.family).map((r) => ({
    key: r.key,
    value: r.spec.secret ? null : r.spec.default,
    shown: r.spec.secret || r.spec.default === undefined ? 'unset' : r.spec.value.show(r.spec.default),
    default: r.spec.default,
    source: { kind: 'default' },
    apply: r.spec.apply,
    role: r.spec.role,
    group: r.spec.group,
    unit: r.spec.value.unit,
    env: r.env,
    card: r.spec.card,
    description: r.spec.description,
    secret: r.spec.secret ?? false,
  }));
  const ops = {
    'settings.get': vi.fn(async () => ({ dataDir: '/fake', file: '/fake/settings.json', settings: entries.map((e) => ({ ...e })) })),
    'settings.set': vi.fn(async ({ key, value }: { key: string; value?: unknown }): Promise<SetSettingResult> => {
      const entry = entries.find((e) => e.key === key);
      const parsed = resolveSettingKey(key)?.row.spec.value.schema.safeParse(value);
      if (!entry || !parsed) throw new StudioApiError('BAD_INPUT', `unknown setting "${key}"`, 'key');
      if (!parsed.success) throw new StudioApiError('BAD_INPUT', `setting ${key}: ${parsed.error.issues[0]!.message}`, 'value');
      if (entry.apply === 'live')
        Object.assign(entry, {
          value: parsed.data,
          shown: resolveSettingKey(key)!.row.spec.value.show(parsed.data),
          source: { kind: 'log', name: 'SetLimits by ui:local' },
        });
      else entry.pending = { value: parsed.data, shown: String(value) };
      return { key, applied: entry.apply === 'live' ? 'now' : 'after-restart', setting: { ...entry } };
    }),
  };
  return { ops, entries };
}
