// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { effectiveTheme, installTheme, THEME_KEY, useTheme } from './theme-store';

afterEach(() => localStorage.clear());

describe('issue 15 item 10: theme switch (system / light / dark)', () => {
  it('system follows the OS; light and dark override it', () => {
    expect(effectiveTheme('system', 'dark')).toBe('dark');
    expect(effectiveTheme('system', 'light')).toBe('light');
    expect(effectiveTheme('light', 'dark')).toBe('light');
    expect(effectiveTheme('dark', 'light')).toBe('dark');
  });

  it('puts the effective theme on <html> and keeps the choice in localStorage', () => {
    const stop = installTheme(document);
    useTheme.getState().setSystem('light');
    useTheme.getState().setChoice('dark');
    expect(document.documentElement.dataset['theme']).toBe('dark');
    expect(localStorage.getItem(THEME_KEY)).toBe('dark');
    useTheme.getState().setChoice('system');
    expect(document.documentElement.dataset['theme']).toBe('light');
    useTheme.getState().setSystem('dark');
    expect(document.documentElement.dataset['theme']).toBe('dark');
    stop();
  });
});
