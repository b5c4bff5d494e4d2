import { StudioEvent } from '../../shared/events/events';

/** Parses a batch from a transport; malformed events are dropped rather than trusted. */
export function parseEventBatch(raw: unknown): StudioEvent[] {
  if (!Array.isArray(raw)) return [];
  const events: StudioEvent[] = [];
  for (const item of raw) {
    const parsed = StudioEvent.safeParse(item);
    if (parsed.success) events.push(parsed.data);
  }
  return events;
}
