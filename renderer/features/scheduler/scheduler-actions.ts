import type { StudioClient } from '../../../shared/api/client';
import { StudioApiError } from '../../../shared/api/errors';
import type { SchedulerLimitsPatch } from '../../../shared/api/scheduler.schema';
import { useScheduler } from '../../store/scheduler-store';
import { describeError } from '../workflow/describe-error';

/** What the Scheduler tab does; each talks to the host through the client. */
export interface SchedulerActions {
  /** Reads the scheduler again; calls arriving while a read runs make one more read after it, not one each. */
  refresh(): Promise<void>;
  /** Changes limits (ADMIN); false, with the reason shown, when refused. */
  setLimits(patch: SchedulerLimitsPatch): Promise<boolean>;
  /** Moves a QUEUED start (OPERATOR); false, with the reason shown, when refused. */
  setPriority(executionId: string, priority: number): Promise<boolean>;
}

/** The panel shows at most this many running and waiting starts (the counts are always complete). */
export const VIEW_LIMIT = 500;

export function createSchedulerActions(api: StudioClient, store = useScheduler, now: () => number = Date.now): SchedulerActions {
  let inFlight: Promise<void> | null = null;
  let again = false;

  const read = async (): Promise<void> => {
    do {
      again = false;
      try {
        store.getState().setView(await api['scheduler.get']({ limit: VIEW_LIMIT }), now());
      } catch (error) {
        store.getState().setError(`Could not read the scheduler: ${describeError(error)}`);
      }
    } while (again);
  };

  const refusal = (what: string, error: unknown, role: string) => {
    const forbidden = error instanceof StudioApiError && error.code === 'FORBIDDEN';
    store.getState().setError(forbidden ? `${what} needs role ${role}.` : `${what} refused: ${describeError(error)}`);
  };

  const actions: SchedulerActions = {
    refresh() {
      if (inFlight) {
        again = true;
        return inFlight;
      }
      inFlight = read().finally(() => (inFlight = null));
      return inFlight;
    },
    async setLimits(patch) {
      try {
        await api['scheduler.setLimits'](patch);
        await actions.refresh();
        return true;
      } catch (error) {
        refusal('Changing limits', error, 'ADMIN');
        return false;
      }
    },
    async setPriority(executionId, priority) {
      try {
        await api['runs.setPriority']({ executionId, priority });
        await actions.refresh();
        return true;
      } catch (error) {
        refusal('Changing the priority', error, 'OPERATOR');
        void actions.refresh();
        return false;
      }
    },
  };
  return actions;
}
