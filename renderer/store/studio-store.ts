import { create } from 'zustand';
import { createCatalogSlice, type CatalogSlice } from './catalog-slice';
import { createGraphSlice, type GraphSlice } from './graph-slice';
import { createRunsSlice, type RunsSlice } from './runs-slice';
import { createUiSlice, type UiSlice } from './ui-slice';
import { createVersionsSlice, type VersionsSlice } from './versions-slice';

/** The studio's store, in slices; components select single fields (`useStudio(s => s.dirty)`). */
export type StudioState = GraphSlice & CatalogSlice & RunsSlice & UiSlice & VersionsSlice;

export function createStudioStore() {
  return create<StudioState>()((...a) => ({
    ...createGraphSlice(...a),
    ...createCatalogSlice(...a),
    ...createRunsSlice(...a),
    ...createUiSlice(...a),
    ...createVersionsSlice(...a),
  }));
}

export const useStudio = createStudioStore();
