import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadWindowState, restoreWindow, saveWindowState, WINDOW_STATE_FILE } from './window-state';

const limits = { width: 1400, height: 900, minWidth: 900, minHeight: 600 };
const laptop = { x: 0, y: 0, width: 1440, height: 875 };
const rightMonitor = { x: 1440, y: -200, width: 2560, height: 1400 };

describe('STU-08 window size, position and maximized state restored', () => {
  it('restores saved bounds that a display still shows, and the maximized flag', () => {
    expect(restoreWindow({ x: 1600, y: 0, width: 1600, height: 1000, maximized: true }, [laptop, rightMonitor], limits)).toEqual({
      bounds: { x: 1600, y: 0, width: 1600, height: 1000 },
      maximized: true,
    });
  });

  it('opens centred on the primary display when the saved display is gone (nothing usable shows)', () => {
    expect(restoreWindow({ x: 1600, y: 0, width: 1600, height: 1000, maximized: false }, [laptop], limits)).toEqual({
      bounds: { width: 1440, height: 875 },
      maximized: false,
    });
    // Only a 40 px sliver would show: not enough to grab the window.
    expect(restoreWindow({ x: 1400, y: 100, width: 1000, height: 700 }, [laptop], limits)).toEqual({ bounds: { width: 1000, height: 700 }, maximized: false });
  });

  it('pulls a window that hangs off its display back inside, and shrinks one larger than it (not below the minimum)', () => {
    expect(restoreWindow({ x: 1000, y: 500, width: 1200, height: 800 }, [laptop], limits)).toEqual({
      bounds: { x: 240, y: 75, width: 1200, height: 800 },
      maximized: false,
    });
    expect(restoreWindow({ x: -50, y: -30, width: 3000, height: 2000 }, [laptop], limits)).toEqual({
      bounds: { x: 0, y: 0, width: 1440, height: 875 },
      maximized: false,
    });
    expect(restoreWindow({ x: 10, y: 10, width: 200, height: 100 }, [laptop], limits).bounds).toEqual({ x: 10, y: 10, width: 900, height: 600 });
  });

  it('uses the defaults for a missing or malformed file', () => {
    for (const saved of [null, 'x', { width: 'wide' }, { x: 1.5, y: 0, width: 800, height: 600 }, { width: -5, height: 600 }]) {
      expect(restoreWindow(saved, [laptop], limits), JSON.stringify(saved)).toEqual({ bounds: { width: 1400, height: 875 }, maximized: false });
    }
  });

  it('saves the normal bounds and the maximized flag in userData, and reads them back', () => {
    const dir = mkdtempSync(join(tmpdir(), 'yukta-window-'));
    expect(loadWindowState(dir)).toBeNull();
    saveWindowState(dir, { x: 10.4, y: 20, width: 1200, height: 800 }, true);
    expect(JSON.parse(readFileSync(join(dir, WINDOW_STATE_FILE), 'utf8'))).toEqual({ x: 10, y: 20, width: 1200, height: 800, maximized: true });
    expect(restoreWindow(loadWindowState(dir), [laptop], limits)).toEqual({ bounds: { x: 10, y: 20, width: 1200, height: 800 }, maximized: true });
    writeFileSync(join(dir, WINDOW_STATE_FILE), '{not json');
    expect(loadWindowState(dir)).toBeNull();
  });
});
