import { describe, expect, it } from 'vitest';
import { heldMs, holdClosed, holdOpened, NO_HOLD, splitDuration } from './hold-clock';

const ms = (n: number) => `${n} ms`;

describe('STU-04 held and waiting time kept apart from active time', () => {
  it('counts overlapping holds once: two messages waiting from 100–400 and 200–600 hold 500 ms', () => {
    let c = holdOpened(NO_HOLD, 100);
    c = holdOpened(c, 200);
    c = holdClosed(c, 400);
    expect(heldMs(c, 500)).toBe(400);
    c = holdClosed(c, 600);
    expect(c.open).toBe(0);
    expect(heldMs(c, 10_000)).toBe(500);
  });

  it('an open hold counts up to the given end; a close without an open changes nothing', () => {
    expect(heldMs(holdOpened(NO_HOLD, 1000), 4000)).toBe(3000);
    expect(holdClosed(NO_HOLD, 50)).toBe(NO_HOLD);
    expect(heldMs(undefined, 99)).toBe(0);
  });

  it('splits a duration into active and held time, or shows it whole when never held', () => {
    expect(splitDuration(6000, 5000, 'held', ms)).toBe('1000 ms active · 5000 ms held');
    expect(splitDuration(700, 0, 'held', ms)).toBe('700 ms');
  });
});
