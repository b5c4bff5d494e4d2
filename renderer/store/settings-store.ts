import { create } from 'zustand';
import type { ApiKeyInfo, CreatedApiKey, SecretInfo, Whoami } from '../../shared/api/security.schema';
import type { SettingEntry, SettingsView } from '../../shared/api/settings.schema';

/** A list the caller may not read (its role), or could not read, with the reason shown in its place. */
export type Listing<T> = { items: T[] } | { refused: string };

/** The Settings screen's picture of the host (STU-07, CFG-01), read when the screen opens. */
export interface SettingsState {
  view: SettingsView | null;
  /** Who the studio calls as: decides which controls are enabled. Null when the host could not say. */
  whoami: Whoami | null;
  keys: Listing<ApiKeyInfo> | null;
  secrets: Listing<SecretInfo> | null;
  /** A key just created: its value is held only until the user dismisses it (shown once, never again). */
  created: CreatedApiKey | null;
  /** Why the settings could not be read. */
  error: string | null;
  setRead(read: Pick<SettingsState, 'view' | 'whoami' | 'keys' | 'secrets' | 'error'>): void;
  /** Puts one setting as the host answered it in place (or adds it: a new family member). */
  putEntry(entry: SettingEntry): void;
  setKeys(keys: Listing<ApiKeyInfo>): void;
  setSecrets(secrets: Listing<SecretInfo>): void;
  setCreated(created: CreatedApiKey | null): void;
  /** Forgets everything, the created key first: closing the screen drops it. */
  reset(): void;
}

const EMPTY = { view: null, whoami: null, keys: null, secrets: null, created: null, error: null } as const;

export const useSettings = create<SettingsState>()((set) => ({
  ...EMPTY,
  setRead: (read) => set(read),
  putEntry: (entry) =>
    set((s) => {
      if (!s.view) return {};
      const known = s.view.settings.some((e) => e.key === entry.key);
      const settings = known ? s.view.settings.map((e) => (e.key === entry.key ? entry : e)) : [...s.view.settings, entry];
      return { view: { ...s.view, settings } };
    }),
  setKeys: (keys) => set({ keys }),
  setSecrets: (secrets) => set({ secrets }),
  setCreated: (created) => set({ created }),
  reset: () => set(EMPTY),
}));
