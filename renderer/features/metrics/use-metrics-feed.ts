import { useEffect, useState } from 'react';
import type { StudioClient } from '../../../shared/api/client';
import type { StudioEvent } from '../../../shared/events/events';
import { isTerminal } from '../../../shared/status/status';
import { createEventCoalescer, type FrameScheduler } from '../../api/event-coalescer';
import { describeError } from '../workflow/describe-error';
import { addSnapshot, EMPTY_SERIES, type MetricsSeries } from './metrics-series';

/** Calls `tick` every `ms` until the returned function is called; tests pass a manual one. */
export type Ticker = (tick: () => void, ms: number) => () => void;

export const intervalTicker: Ticker = (tick, ms) => {
  const id = setInterval(tick, ms);
  return () => clearInterval(id);
};

/** How often the open Metrics tab reads the meters (a point per read on the charts). */
export const READ_EVERY_MS = 1000;

/** A run ended: the counters changed now, not only at the next tick. */
function endsRun(event: StudioEvent): boolean {
  return event.type === 'EXECUTION_STATUS' && isTerminal(event.status);
}

/**
 * While the Metrics tab is open: reads `metrics.get` at once, then every second (the rate charts need a
 * steady clock) and whenever runs end (at most once per animation frame). One read at a time; a read asked
 * for meanwhile runs once after it.
 */
export function useMetricsFeed(api: StudioClient, ticker: Ticker = intervalTicker, schedule?: FrameScheduler): { series: MetricsSeries; error: string | null } {
  const [state, setState] = useState<{ series: MetricsSeries; error: string | null }>({ series: EMPTY_SERIES, error: null });

  useEffect(() => {
    let disposed = false;
    let inFlight = false;
    let again = false;
    const read = async (): Promise<void> => {
      if (inFlight) {
        again = true;
        return;
      }
      inFlight = true;
      do {
        again = false;
        try {
          const snapshot = await api['metrics.get']({});
          if (!disposed) setState((s) => ({ series: addSnapshot(s.series, snapshot), error: null }));
        } catch (error) {
          if (!disposed) setState((s) => ({ ...s, error: `Could not read the metrics: ${describeError(error)}` }));
        }
      } while (again && !disposed);
      inFlight = false;
    };
    const coalescer = createEventCoalescer((events) => {
      if (events.some(endsRun)) void read();
    }, schedule);
    const unsubscribe = api.subscribe({ type: ['EXECUTION_STATUS'] }, (batch) => coalescer.push(batch));
    const stop = ticker(() => void read(), READ_EVERY_MS);
    void read();
    return () => {
      disposed = true;
      stop();
      unsubscribe();
      coalescer.dispose();
    };
  }, [api, ticker, schedule]);

  return state;
}
