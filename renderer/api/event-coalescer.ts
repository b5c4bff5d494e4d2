import type { StudioEvent } from '../../shared/events/events';

/** Schedules a callback before the next paint; `requestAnimationFrame` in the app, a fake in tests. */
export type FrameScheduler = (callback: () => void) => void;

export interface EventCoalescer {
  /** Queues a batch; it is applied with every other batch that arrives before the next frame. */
  push(batch: readonly StudioEvent[]): void;
  /** Applies whatever is queued now (e.g. before switching runs). */
  flush(): void;
  dispose(): void;
}

const defaultScheduler: FrameScheduler = (callback) => {
  if (typeof requestAnimationFrame === 'function') requestAnimationFrame(() => callback());
  else setTimeout(callback, 16);
};

/**
 * Batches from the transport can arrive faster than the screen refreshes; applying each one would
 * re-render once per batch. This queues them and applies all of them at most once per animation frame.
 */
export function createEventCoalescer(apply: (events: StudioEvent[]) => void, schedule: FrameScheduler = defaultScheduler): EventCoalescer {
  let pending: StudioEvent[] = [];
  let scheduled = false;
  let disposed = false;

  const flush = (): void => {
    scheduled = false;
    if (disposed || pending.length === 0) return;
    const events = pending;
    pending = [];
    apply(events);
  };

  return {
    push(batch) {
      if (disposed || batch.length === 0) return;
      for (const event of batch) pending.push(event);
      if (!scheduled) {
        scheduled = true;
        schedule(flush);
      }
    },
    flush,
    dispose() {
      disposed = true;
      pending = [];
    },
  };
}
