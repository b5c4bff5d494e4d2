import { BrowserWindow, screen } from 'electron';
import type { WindowGuard } from './harden';
import { mainWindowOptions } from './window-factory';
import { loadWindowState, restoreWindow, saveWindowState, type Rect } from './window-state';

/** The displays' work areas, the primary one first (where a window without a valid position opens). */
function workAreas(): Rect[] {
  const primary = screen.getPrimaryDisplay();
  return [primary, ...screen.getAllDisplays().filter((d) => d.id !== primary.id)].map((d) => d.workArea);
}

/**
 * The studio window (STU-08): built through the guard (SEC-03) at the size, position and maximized state
 * it had when last closed (fitted to the displays there are now), and saved again as it closes.
 */
export function createMainWindow(windows: WindowGuard, preloadPath: string, userData: string): BrowserWindow {
  const options = mainWindowOptions(preloadPath);
  const restored = restoreWindow(loadWindowState(userData), workAreas(), {
    width: options.width ?? 1400,
    height: options.height ?? 900,
    minWidth: options.minWidth ?? 900,
    minHeight: options.minHeight ?? 600,
  });
  const window = windows.create((o) => new BrowserWindow(o), { ...options, ...restored.bounds });
  if (restored.maximized) window.maximize();
  window.once('ready-to-show', () => window.show());
  window.on('close', () => {
    try {
      saveWindowState(userData, window.getNormalBounds(), window.isMaximized());
    } catch (error) {
      console.warn('yukta: window state not saved', error);
    }
  });
  return window;
}
