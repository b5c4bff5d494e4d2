import { useCallback, useState, type KeyboardEvent, type PointerEvent } from 'react';

const HEIGHT_KEY = 'yukta-studio:bottom-panel-height';
export const DEFAULT_BOTTOM_HEIGHT = 220;
const MIN_HEIGHT = 96;
const KEY_STEP = 24;

function maxHeight(): number {
  return Math.max(MIN_HEIGHT, Math.round(window.innerHeight * 0.7));
}

export function clampHeight(height: number, max = maxHeight()): number {
  return Math.round(Math.min(max, Math.max(MIN_HEIGHT, height)));
}

/** The bottom panel's height, remembered in this browser (a UI preference, not data). */
export function useBottomPanelHeight(): [number, (height: number) => void] {
  const [height, setHeight] = useState(() => {
    const stored = Number(readStored());
    return Number.isFinite(stored) && stored > 0 ? clampHeight(stored) : DEFAULT_BOTTOM_HEIGHT;
  });
  const set = useCallback((next: number) => {
    const clamped = clampHeight(next);
    setHeight(clamped);
    try {
      localStorage.setItem(HEIGHT_KEY, String(clamped));
    } catch {
      // Storage off: the size lasts until the page closes.
    }
  }, []);
  return [height, set];
}

function readStored(): string | null {
  try {
    return localStorage.getItem(HEIGHT_KEY);
  } catch {
    return null;
  }
}

/** The panel's top edge: drag it, or focus it and press ↑/↓ (Home/End: smallest/largest). */
export function PanelResizer({ height, onResize }: { height: number; onResize: (height: number) => void }) {
  const onPointerDown = (e: PointerEvent<HTMLDivElement>) => {
    e.preventDefault();
    const startY = e.clientY;
    const startHeight = height;
    const target = e.currentTarget;
    target.setPointerCapture(e.pointerId);
    const move = (ev: globalThis.PointerEvent) => onResize(startHeight + (startY - ev.clientY));
    const up = () => {
      target.removeEventListener('pointermove', move);
      target.removeEventListener('pointerup', up);
    };
    target.addEventListener('pointermove', move);
    target.addEventListener('pointerup', up);
  };
  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    const next =
      e.key === 'ArrowUp'
        ? height + KEY_STEP
        : e.key === 'ArrowDown'
          ? height - KEY_STEP
          : e.key === 'Home'
            ? MIN_HEIGHT
            : e.key === 'End'
              ? maxHeight()
              : null;
    if (next === null) return;
    e.preventDefault();
    onResize(next);
  };
  return (
    <div
      className="panel-resizer"
      role="separator"
      aria-orientation="horizontal"
      aria-label="Resize the bottom panel"
      aria-valuenow={height}
      aria-valuemin={MIN_HEIGHT}
      aria-valuemax={maxHeight()}
      tabIndex={0}
      onPointerDown={onPointerDown}
      onKeyDown={onKeyDown}
      data-testid="bottom-panel-resizer"
    />
  );
}
