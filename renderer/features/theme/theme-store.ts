import { create } from 'zustand';

/** The user's choice (UI.md: system / light / dark); `system` follows the OS. */
export type ThemeChoice = 'system' | 'light' | 'dark';
export type Theme = 'light' | 'dark';

export const THEME_KEY = 'yukta-studio:theme';
const CHOICES: readonly ThemeChoice[] = ['system', 'light', 'dark'];

function storedChoice(): ThemeChoice {
  try {
    const value = localStorage.getItem(THEME_KEY);
    return CHOICES.includes(value as ThemeChoice) ? (value as ThemeChoice) : 'system';
  } catch {
    return 'system';
  }
}

function systemTheme(): Theme {
  return typeof window !== 'undefined' && window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

export function effectiveTheme(choice: ThemeChoice, system: Theme): Theme {
  return choice === 'system' ? system : choice;
}

interface ThemeState {
  choice: ThemeChoice;
  system: Theme;
  setChoice(choice: ThemeChoice): void;
  setSystem(system: Theme): void;
}

/**
 * The theme (issue 15 item 10): the choice is kept in this browser (a UI preference); the page carries the
 * effective theme as `data-theme` on <html>, which the style layer's colours key on.
 */
export const useTheme = create<ThemeState>()((set) => ({
  choice: storedChoice(),
  system: systemTheme(),
  setChoice: (choice) => {
    try {
      localStorage.setItem(THEME_KEY, choice);
    } catch {
      // Storage off: the choice lasts until the page closes.
    }
    set({ choice });
  },
  setSystem: (system) => set({ system }),
}));

/** Applies the effective theme to <html> now and whenever the choice or the OS setting changes. */
export function installTheme(doc: Document = document): () => void {
  const apply = () => {
    const { choice, system } = useTheme.getState();
    doc.documentElement.dataset['theme'] = effectiveTheme(choice, system);
  };
  apply();
  const unsubscribe = useTheme.subscribe(apply);
  const media = typeof window !== 'undefined' ? window.matchMedia?.('(prefers-color-scheme: dark)') : undefined;
  const onMedia = (e: MediaQueryListEvent) => useTheme.getState().setSystem(e.matches ? 'dark' : 'light');
  media?.addEventListener('change', onMedia);
  return () => {
    unsubscribe();
    media?.removeEventListener('change', onMedia);
  };
}
