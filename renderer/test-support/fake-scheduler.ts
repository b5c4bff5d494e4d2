import { vi } from 'vitest';
import { StudioApiError } from '../../shared/api/errors';
import { DEFAULT_SCHEDULER_LIMITS, REJECT_REASONS, type SchedulerView } from '../../shared/api/scheduler.schema';

/** The scheduler operations of the renderer's fake host: a view the test sets, limits and priorities it can change. */
export function createFakeScheduler() {
  const state: { view: SchedulerView } = {
    view: {
      limits: { ...DEFAULT_SCHEDULER_LIMITS },
      shuttingDown: false,
      metrics: { running: 0, queued: 0, rejected: Object.fromEntries(REJECT_REASONS.map((r) => [r, 0])) as SchedulerView['metrics']['rejected'] },
      running: [],
      queued: [],
      queuedTruncated: false,
      byWorkflow: [],
      bySession: [],
    },
  };
  const ops = {
    'scheduler.get': vi.fn(async () => structuredClone(state.view)),
    'scheduler.setLimits': vi.fn(async (patch: Partial<SchedulerView['limits']>) => {
      state.view = { ...state.view, limits: { ...state.view.limits, ...patch } };
      return { ...state.view.limits };
    }),
    'runs.setPriority': vi.fn(async ({ executionId, priority }: { executionId: string; priority: number }) => {
      const entry = state.view.queued.find((q) => q.executionId === executionId);
      if (!entry) throw new StudioApiError('CONFLICT', `run "${executionId}" is not QUEUED`, 'executionId');
      entry.priority = priority;
      const queued = [...state.view.queued]
        .sort((a, b) => b.priority - a.priority || a.enqueuedAt - b.enqueuedAt)
        .map((q, i) => ({ ...q, position: i + 1, ahead: i }));
      state.view = { ...state.view, queued };
      return { executionId, priority, position: queued.findIndex((q) => q.executionId === executionId) + 1 };
    }),
  };
  return { state, ops };
}
