import { useEffect } from 'react';
import type { StudioClient } from '../../../shared/api/client';
import type { StudioEvent } from '../../../shared/events/events';
import { isTerminal } from '../../../shared/status/status';
import { createEventCoalescer, type FrameScheduler } from '../../api/event-coalescer';

/** A run was queued, got its slot or ended: the scheduler's picture changed. */
export function changesAdmission(event: StudioEvent): boolean {
  return event.type === 'EXECUTION_STATUS' && (event.status === 'QUEUED' || event.status === 'RUNNING' || isTerminal(event.status));
}

/**
 * While the Scheduler tab is open: reads the scheduler once, then again whenever runs are queued, admitted
 * or end — at most once per animation frame, however many events arrive (no timer poll).
 */
export function useSchedulerFeed(api: StudioClient, refresh: () => Promise<void>, schedule?: FrameScheduler): void {
  useEffect(() => {
    const coalescer = createEventCoalescer((events) => {
      if (events.some(changesAdmission)) void refresh();
    }, schedule);
    const unsubscribe = api.subscribe({ type: ['EXECUTION_STATUS'] }, (batch) => coalescer.push(batch));
    void refresh();
    return () => {
      unsubscribe();
      coalescer.dispose();
    };
  }, [api, refresh, schedule]);
}
