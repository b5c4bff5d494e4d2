import type { StateCreator } from 'zustand';
import type { GraphClip } from './clipboard';
import type { StudioState } from './studio-store';

export type BottomTab = 'problems' | 'runs' | 'logs' | 'results' | 'timeline' | 'versions' | 'breakpoints' | 'scheduler' | 'metrics' | 'audit';
/** The studio's modal dialogs opened from the keyboard or the canvas toolbar. */
export type StudioDialog =
  'node-search' | 'shortcuts' | 'save-note' | 'sessions' | 'save-as' | 'run-payload' | 'connect-server' | 'examples' | 'settings' | null;
export type InspectorTab = 'form' | 'json';
export type SaveState = 'idle' | 'saving' | 'saved' | 'failed';

/** A message shown in the banner under the app bar; `kind` decides its test id and where it came from. */
export interface Banner {
  kind: 'save-error' | 'run-error' | 'load-error' | 'import-error' | 'version-error';
  message: string;
}

export interface UiSlice {
  bottomTab: BottomTab;
  /** The newest message; older ones wait in `moreBanners` (one line with a count, never a stack). */
  banner: Banner | null;
  moreBanners: Banner[];
  saveState: SaveState;
  running: boolean;
  /** Side panels are collapsible (UI.md). */
  paletteOpen: boolean;
  inspectorOpen: boolean;
  /** Ctrl/Cmd+C keeps the selection here; each paste moves further by `pasteCount` steps. */
  clipboard: GraphClip | null;
  pasteCount: number;
  /** Box-select mode: a drag on the pane draws a selection box instead of panning. */
  boxSelect: boolean;
  dialog: StudioDialog;
  inspectorTab: InspectorTab;
  togglePanel(panel: 'palette' | 'inspector'): void;
  setClipboard(clip: GraphClip | null): void;
  countPaste(): number;
  setBoxSelect(on: boolean): void;
  openDialog(dialog: StudioDialog): void;
  setInspectorTab(tab: InspectorTab): void;
  setBottomTab(tab: BottomTab): void;
  showBanner(banner: Banner | null): void;
  setSaveState(state: SaveState): void;
  setRunning(running: boolean): void;
}

export const createUiSlice: StateCreator<StudioState, [], [], UiSlice> = (set, get) => ({
  bottomTab: 'problems',
  banner: null,
  moreBanners: [],
  saveState: 'idle',
  running: false,
  paletteOpen: true,
  inspectorOpen: true,
  clipboard: null,
  pasteCount: 0,
  boxSelect: false,
  dialog: null,
  inspectorTab: 'form',
  setClipboard: (clipboard) => set({ clipboard, pasteCount: 0 }),
  countPaste: () => {
    const next = get().pasteCount + 1;
    set({ pasteCount: next });
    return next;
  },
  setBoxSelect: (boxSelect) => set({ boxSelect }),
  openDialog: (dialog) => set({ dialog }),
  setInspectorTab: (inspectorTab) => set({ inspectorTab }),
  togglePanel: (panel) => set((s) => (panel === 'palette' ? { paletteOpen: !s.paletteOpen } : { inspectorOpen: !s.inspectorOpen })),
  setBottomTab: (bottomTab) => set({ bottomTab }),
  showBanner: (banner) =>
    set((s) => {
      // Dismissing shows the next older message; a new one goes on top, replacing one of its kind.
      if (banner === null) return { banner: s.moreBanners[0] ?? null, moreBanners: s.moreBanners.slice(1) };
      const older = [s.banner, ...s.moreBanners].filter((b): b is Banner => b !== null && b.kind !== banner.kind);
      return { banner, moreBanners: older };
    }),
  setSaveState: (saveState) => set({ saveState }),
  setRunning: (running) => set({ running }),
});
