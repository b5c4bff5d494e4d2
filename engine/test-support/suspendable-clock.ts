import { ManualClock, type Clock, type TimerHandle } from '../runtime/clock';

/**
 * A manual clock whose machine can sleep: `suspend(ms)` moves the wall time on without firing or moving
 * timers, as a suspended laptop does (timers run on monotonic time, which stops while asleep, so they
 * fire late by the wall clock). `advanceAsync` moves both.
 */
export class SuspendableClock implements Clock {
  readonly monotonic: ManualClock;
  private offset = 0;

  constructor(startMs: number) {
    this.monotonic = new ManualClock(startMs);
  }

  now(): number {
    return this.monotonic.now() + this.offset;
  }

  setTimer(callback: () => void, delayMs: number): TimerHandle {
    return this.monotonic.setTimer(callback, delayMs);
  }

  clearTimer(handle: TimerHandle): void {
    this.monotonic.clearTimer(handle);
  }

  /** The machine sleeps for `ms`: the wall clock jumps, timers stay where they were. */
  suspend(ms: number): void {
    this.offset += ms;
  }

  advanceAsync(ms: number): Promise<void> {
    return this.monotonic.advanceAsync(ms);
  }
}
