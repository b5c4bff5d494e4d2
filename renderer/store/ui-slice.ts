import type { StateCreator } from 'zustand';
import type { StudioState } from './studio-store';

export type BottomTab = 'problems' | 'runs';
export type SaveState = 'idle' | 'saving' | 'saved' | 'failed';

/** A message shown in the banner under the app bar; `kind` decides its test id and where it came from. */
export interface Banner {
  kind: 'save-error' | 'run-error' | 'load-error';
  message: string;
}

export interface UiSlice {
  bottomTab: BottomTab;
  banner: Banner | null;
  saveState: SaveState;
  running: boolean;
  /** Side panels are collapsible (UI.md). */
  paletteOpen: boolean;
  inspectorOpen: boolean;
  togglePanel(panel: 'palette' | 'inspector'): void;
  setBottomTab(tab: BottomTab): void;
  showBanner(banner: Banner | null): void;
  setSaveState(state: SaveState): void;
  setRunning(running: boolean): void;
}

export const createUiSlice: StateCreator<StudioState, [], [], UiSlice> = (set) => ({
  bottomTab: 'problems',
  banner: null,
  saveState: 'idle',
  running: false,
  paletteOpen: true,
  inspectorOpen: true,
  togglePanel: (panel) => set((s) => (panel === 'palette' ? { paletteOpen: !s.paletteOpen } : { inspectorOpen: !s.inspectorOpen })),
  setBottomTab: (bottomTab) => set({ bottomTab }),
  showBanner: (banner) => set({ banner }),
  setSaveState: (saveState) => set({ saveState }),
  setRunning: (running) => set({ running }),
});
