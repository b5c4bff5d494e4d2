import { create } from 'zustand';
import type { StudioClient } from '../../shared/api/client';
import type { WorkersView } from '../../shared/api/workers.schema';

/** The remote workers as last read (`workers.list`, SCL-01): the Scheduler tab's list and the pool field's choices. */
export interface WorkersState {
  view: WorkersView | null;
  error: string | null;
  setView(view: WorkersView): void;
  setError(error: string | null): void;
}

export const useWorkers = create<WorkersState>()((set) => ({
  view: null,
  error: null,
  setView: (view) => set({ view, error: null }),
  setError: (error) => set({ error }),
}));

/** Reads the workers once; a refused or failed read is kept as the error (a key without VIEWER, a host without workers). */
export async function readWorkers(api: StudioClient, store = useWorkers): Promise<void> {
  try {
    store.getState().setView(await api['workers.list']({}));
  } catch (error) {
    store.getState().setError(error instanceof Error ? error.message : String(error));
  }
}

/** The pools connected workers offer, sorted (the policy form's choices). */
export function connectedPools(view: WorkersView | null): string[] {
  return view ? view.pools.map((p) => p.pool).sort() : [];
}
