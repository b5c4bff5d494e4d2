import { applyNodeChanges, type NodeChange } from '@xyflow/react';
import type { StateCreator } from 'zustand';
import type { WorkflowVersion } from '../../shared/api/workflows.schema';
import type { DiffView } from '../features/versions/diff-view';
import type { StudioNode } from './graph-model';
import type { StudioState } from './studio-store';

/** Version history of the open workflow (STU-02) and the diff shown on the canvas, if any. */
export interface VersionsSlice {
  versions: WorkflowVersion[];
  versionsState: 'idle' | 'loading' | 'ready' | 'error';
  versionsError: string | null;
  /** Versions ticked for comparison (at most two, oldest pick dropped first). */
  comparePick: string[];
  /** The read-only diff canvas; null when the editor shows the open graph. */
  diffView: DiffView | null;
  setVersions(versions: WorkflowVersion[]): void;
  setVersionsState(state: VersionsSlice['versionsState'], error?: string): void;
  togglePick(version: string): void;
  showDiff(view: DiffView | null): void;
  /** React Flow's measurements and selection on the diff canvas (nothing else changes it). */
  applyDiffNodeChanges(changes: NodeChange<StudioNode>[]): void;
}

export const createVersionsSlice: StateCreator<StudioState, [], [], VersionsSlice> = (set) => ({
  versions: [],
  versionsState: 'idle',
  versionsError: null,
  comparePick: [],
  diffView: null,
  setVersions: (versions) =>
    set((s) => ({ versions, versionsState: 'ready', versionsError: null, comparePick: s.comparePick.filter((v) => versions.some((x) => x.version === v)) })),
  setVersionsState: (versionsState, error) => set({ versionsState, versionsError: error ?? null }),
  togglePick: (version) =>
    set((s) => {
      if (s.comparePick.includes(version)) return { comparePick: s.comparePick.filter((v) => v !== version) };
      return { comparePick: [...s.comparePick, version].slice(-2) };
    }),
  showDiff: (diffView) => set({ diffView }),
  applyDiffNodeChanges: (changes) =>
    set((s) => {
      if (!s.diffView) return {};
      const allowed = changes.filter((c) => c.type === 'dimensions' || c.type === 'select');
      if (allowed.length === 0) return {};
      return { diffView: { ...s.diffView, nodes: applyNodeChanges(allowed, s.diffView.nodes) } };
    }),
});
