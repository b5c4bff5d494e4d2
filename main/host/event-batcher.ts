import { matchesFilter, type EventFilter, type StudioEvent } from '../../shared/events/events';
import type { EventBatchListener } from '../../shared/api/transport';

/** Longest a batch waits before delivery; well under one animation frame. */
export const BATCH_INTERVAL_MS = 16;
/** Largest batch delivered at once; a longer backlog goes out in several batches. */
export const MAX_BATCH = 5000;

/**
 * Collects events for one subscriber and delivers them in batches (never one message per event).
 * Events are never dropped here: a batch is flushed when it is full or after BATCH_INTERVAL_MS.
 */
export class EventBatcher {
  private pending: StudioEvent[] = [];
  private timer: ReturnType<typeof setTimeout> | null = null;
  private closed = false;

  /** `initial`: events delivered first, in the first batch (a late subscriber's catch-up, OBS-01). */
  constructor(
    private readonly filter: EventFilter,
    private readonly listener: EventBatchListener,
    initial: readonly StudioEvent[] = [],
  ) {
    for (const event of initial) this.push(event);
  }

  readonly push = (event: StudioEvent): void => {
    if (this.closed || !matchesFilter(event, this.filter)) return;
    this.pending.push(event);
    if (this.pending.length >= MAX_BATCH) this.flush();
    else this.timer ??= setTimeout(this.flush, BATCH_INTERVAL_MS);
  };

  readonly flush = (): void => {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    if (this.pending.length === 0 || this.closed) return;
    const batch = this.pending;
    this.pending = [];
    this.listener(batch);
  };

  close(): void {
    this.flush();
    this.closed = true;
  }
}
