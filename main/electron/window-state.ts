/**
 * The main window's size, position and maximized state across launches (STU-08), kept in
 * `<userData>/window-state.json`. A saved position is used only where a display still shows the window
 * (monitors come and go); otherwise the window opens centred on the primary display. Plain logic, so it
 * is tested without Electron.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { readJsonFile, writeJsonFileAtomic } from '../host/json-file';

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export const WINDOW_STATE_FILE = 'window-state.json';

const Saved = z.object({
  x: z.number().int().optional(),
  y: z.number().int().optional(),
  width: z.number().int().min(1).max(100_000),
  height: z.number().int().min(1).max(100_000),
  maximized: z.boolean().default(false),
});
export type WindowState = z.infer<typeof Saved>;

export interface WindowLimits {
  width: number;
  height: number;
  minWidth: number;
  minHeight: number;
}

/** How much of the window (px each way) must stay on a display for its saved position to count. */
const MIN_VISIBLE = 100;

function overlap(a: Rect, b: Rect): { width: number; height: number } {
  return { width: Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x), height: Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y) };
}

function clampSize(value: number, min: number, max: number): number {
  return Math.max(Math.min(value, max), Math.min(min, max));
}

/**
 * The bounds to open with: the saved ones fitted into the display (work area) that shows most of them, or
 * — when none shows at least 100×100 px, or nothing usable was saved — the default size fitted into the
 * primary display, without a position (Electron centres it).
 */
export function restoreWindow(
  saved: unknown,
  workAreas: readonly Rect[],
  limits: WindowLimits,
): { bounds: Partial<Rect> & { width: number; height: number }; maximized: boolean } {
  const primary = workAreas[0];
  const fitted = (width: number, height: number, area: Rect | undefined) => ({
    width: area ? clampSize(width, limits.minWidth, area.width) : width,
    height: area ? clampSize(height, limits.minHeight, area.height) : height,
  });
  const parsed = Saved.safeParse(saved);
  if (!parsed.success) return { bounds: fitted(limits.width, limits.height, primary), maximized: false };
  const state = parsed.data;
  if (state.x === undefined || state.y === undefined) return { bounds: fitted(state.width, state.height, primary), maximized: state.maximized };
  const rect = { x: state.x, y: state.y, width: state.width, height: state.height };
  let best: { area: Rect; seen: number } | null = null;
  for (const area of workAreas) {
    const { width, height } = overlap(rect, area);
    if (width >= MIN_VISIBLE && height >= MIN_VISIBLE && (!best || width * height > best.seen)) best = { area, seen: width * height };
  }
  if (!best) return { bounds: fitted(state.width, state.height, primary), maximized: state.maximized };
  const size = fitted(state.width, state.height, best.area);
  // Pulled fully inside the display it is mostly on, so the title bar can always be grabbed.
  const x = Math.min(Math.max(state.x, best.area.x), best.area.x + best.area.width - size.width);
  const y = Math.min(Math.max(state.y, best.area.y), best.area.y + best.area.height - size.height);
  return { bounds: { x, y, ...size }, maximized: state.maximized };
}

/** Reads the saved state (null when there is none or it is unreadable: the defaults apply). */
export function loadWindowState(userData: string): unknown {
  try {
    return readJsonFile(join(userData, WINDOW_STATE_FILE));
  } catch {
    return null;
  }
}

/** Saves the normal (not maximized) bounds and whether the window is maximized. */
export function saveWindowState(userData: string, normalBounds: Rect, maximized: boolean): void {
  const state: WindowState = {
    x: Math.round(normalBounds.x),
    y: Math.round(normalBounds.y),
    width: Math.round(normalBounds.width),
    height: Math.round(normalBounds.height),
    maximized,
  };
  writeJsonFileAtomic(join(userData, WINDOW_STATE_FILE), state);
}
