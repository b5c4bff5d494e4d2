/** A timer handle returned by a clock; opaque to callers. */
export type TimerHandle = { readonly id: number };

/**
 * All engine time goes through a clock, so timeouts, backoff and deadlines can be tested in virtual time.
 */
export interface Clock {
  now(): number;
  setTimer(callback: () => void, delayMs: number): TimerHandle;
  clearTimer(handle: TimerHandle): void;
}

/** A timer of the wall clock: its handle holds Node's timeout (no map of timers to keep in step). */
class SystemTimer implements TimerHandle {
  timeout: ReturnType<typeof setTimeout> | null = null;

  constructor(readonly id: number) {}
}

/** The wall clock. */
export class SystemClock implements Clock {
  private nextId = 1;

  now(): number {
    return Date.now();
  }

  setTimer(callback: () => void, delayMs: number): TimerHandle {
    const timer = new SystemTimer(this.nextId++);
    const t = setTimeout(() => {
      timer.timeout = null;
      callback();
    }, delayMs);
    t.unref?.();
    timer.timeout = t;
    return timer;
  }

  clearTimer(handle: TimerHandle): void {
    if (!(handle instanceof SystemTimer) || handle.timeout === null) return;
    clearTimeout(handle.timeout);
    handle.timeout = null;
  }
}

/** A clock that moves only when told to; timers fire in due order during `advance`. */
export class ManualClock implements Clock {
  private current: number;
  private nextId = 1;
  private readonly timers = new Map<number, { due: number; callback: () => void }>();

  constructor(startMs = 0) {
    this.current = startMs;
  }

  now(): number {
    return this.current;
  }

  setTimer(callback: () => void, delayMs: number): TimerHandle {
    const id = this.nextId++;
    this.timers.set(id, { due: this.current + Math.max(0, delayMs), callback });
    return { id };
  }

  clearTimer(handle: TimerHandle): void {
    this.timers.delete(handle.id);
  }

  /** Moves time forward by `ms`, firing every timer that falls due, in order of due time. */
  advance(ms: number): void {
    const target = this.current + ms;
    for (;;) {
      let nextId = -1;
      let nextDue = Infinity;
      for (const [id, t] of this.timers) {
        if (t.due <= target && t.due < nextDue) {
          nextDue = t.due;
          nextId = id;
        }
      }
      if (nextId < 0) break;
      const timer = this.timers.get(nextId)!;
      this.timers.delete(nextId);
      this.current = timer.due;
      timer.callback();
    }
    this.current = target;
  }

  /**
   * Like `advance`, but lets promise callbacks run after each timer, as they would between real timers
   * (work that a timer resumes can set the next timer before time moves on).
   */
  async advanceAsync(ms: number): Promise<void> {
    const target = this.current + ms;
    for (;;) {
      await settle();
      let next = Infinity;
      for (const t of this.timers.values()) if (t.due <= target && t.due < next) next = t.due;
      if (next === Infinity) break;
      this.advance(next - this.current);
    }
    this.current = target;
    await settle();
  }

  pendingTimers(): number {
    return this.timers.size;
  }
}

/** Lets queued promise callbacks and immediates run. */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await new Promise<void>((resolve) => setImmediate(resolve));
}
