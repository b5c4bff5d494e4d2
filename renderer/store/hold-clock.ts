/**
 * Time a node (or a run) spent held at a breakpoint or waiting for a signal (STU-04, CTL-05): how many holds
 * are open now, since when the first of them, and the time of the holds already closed. Overlapping holds
 * (three messages waiting at once) count once, so active time = duration − held time.
 */
export interface HoldClock {
  readonly open: number;
  readonly since: number | null;
  readonly closedMs: number;
}

export const NO_HOLD: HoldClock = { open: 0, since: null, closedMs: 0 };

export function holdOpened(clock: HoldClock, at: number): HoldClock {
  return { open: clock.open + 1, since: clock.open === 0 ? at : clock.since, closedMs: clock.closedMs };
}

export function holdClosed(clock: HoldClock, at: number): HoldClock {
  if (clock.open === 0) return clock;
  if (clock.open > 1) return { ...clock, open: clock.open - 1 };
  return { open: 0, since: null, closedMs: clock.closedMs + Math.max(0, at - (clock.since ?? at)) };
}

/** Held time up to `now` (a node's end, or the present while it is still held). */
export function heldMs(clock: HoldClock | undefined, now: number): number {
  if (!clock) return 0;
  return clock.closedMs + (clock.open > 0 && clock.since !== null ? Math.max(0, now - clock.since) : 0);
}

/** Duration split into active and held time, e.g. "1.2 s active · 40 s held"; the plain duration when never held. */
export function splitDuration(totalMs: number, held: number, heldWord: string, format: (ms: number) => string): string {
  if (held <= 0) return format(totalMs);
  return `${format(Math.max(0, totalMs - held))} active · ${format(held)} ${heldWord}`;
}
