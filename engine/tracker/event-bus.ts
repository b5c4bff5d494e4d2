import type { StudioEvent, UnnumberedEvent } from '../../shared/events/events';

export type EventListener = (event: StudioEvent) => void;

/**
 * The one feed of engine events: numbers each event and hands it to every listener in order.
 * A listener that throws is reported and never stops the engine or the other listeners.
 */
export class EventBus {
  private seq = 0;
  private readonly listeners = new Set<EventListener>();

  /** `outgoing` may replace an event before anyone sees it (the engine masks secret values, SEC-02). */
  constructor(
    private readonly onListenerError: (error: unknown) => void = () => {},
    private readonly outgoing: ((event: UnnumberedEvent) => UnnumberedEvent) | null = null,
  ) {}

  /** Numbers the event in place (the engine builds a fresh object per event) and delivers it. */
  publish(event: UnnumberedEvent): StudioEvent {
    const numbered = (this.outgoing === null ? event : this.outgoing(event)) as StudioEvent;
    numbered.seq = ++this.seq;
    for (const listener of this.listeners) {
      try {
        listener(numbered);
      } catch (error) {
        this.onListenerError(error);
      }
    }
    return numbered;
  }

  subscribe(listener: EventListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  get lastSeq(): number {
    return this.seq;
  }
}
