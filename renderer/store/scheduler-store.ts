import { create } from 'zustand';
import type { SchedulerView } from '../../shared/api/scheduler.schema';

/** The scheduler as the Scheduler tab last read it (STU-06). */
export interface SchedulerState {
  view: SchedulerView | null;
  /** Why the last read or change failed, shown in the panel. */
  error: string | null;
  /** When the view was read (the panel's "as of"). */
  readAt: number | null;
  setView(view: SchedulerView, at: number): void;
  setError(error: string | null): void;
}

export const useScheduler = create<SchedulerState>()((set) => ({
  view: null,
  error: null,
  readAt: null,
  setView: (view, readAt) => set({ view, readAt, error: null }),
  setError: (error) => set({ error }),
}));
