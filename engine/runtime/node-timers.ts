import type { Clock, TimerHandle } from './clock';

interface PausableTimer {
  callback: () => void;
  /** Due time while running; remaining time while frozen. */
  due: number;
  remaining: number;
  handle: TimerHandle | null;
}

/** A handle to cancel a timer made by `NodeTimers.set`. */
export type NodeTimer = { cancel(): void };

/**
 * The timers of one node (or one run): every clock a node keeps goes through here, so pausing the node
 * freezes all of them at once (ENG-05: a pause never causes a timeout) and resuming re-arms them with the
 * time they had left.
 */
export class NodeTimers {
  /** Made with the first timer: most nodes of a short run never set one. */
  private activeSet: Set<PausableTimer> | null = null;
  private frozen = false;

  constructor(private readonly clock: Clock) {}

  private get timerSet(): Set<PausableTimer> {
    return (this.activeSet ??= new Set());
  }

  get isFrozen(): boolean {
    return this.frozen;
  }

  now(): number {
    return this.clock.now();
  }

  set(callback: () => void, delayMs: number): NodeTimer {
    const timer: PausableTimer = { callback, due: this.clock.now() + delayMs, remaining: delayMs, handle: null };
    this.timerSet.add(timer);
    if (!this.frozen) this.arm(timer);
    return {
      cancel: () => {
        if (timer.handle) this.clock.clearTimer(timer.handle);
        this.timerSet.delete(timer);
      },
    };
  }

  /** Resolves after `ms` of unfrozen time; rejects with the signal's reason if it aborts first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const onAbort = () => {
        timer.cancel();
        reject(signal!.reason);
      };
      const timer = this.set(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  freeze(): void {
    if (this.frozen) return;
    this.frozen = true;
    if (this.activeSet === null) return;
    const now = this.clock.now();
    for (const t of this.timerSet) {
      if (t.handle) this.clock.clearTimer(t.handle);
      t.handle = null;
      t.remaining = Math.max(0, t.due - now);
    }
  }

  thaw(): void {
    if (!this.frozen) return;
    this.frozen = false;
    if (this.activeSet === null) return;
    const now = this.clock.now();
    for (const t of this.timerSet) {
      t.due = now + t.remaining;
      this.arm(t);
    }
  }

  /** No timer, not frozen: for the node's next run. */
  reset(): void {
    this.cancelAll();
    this.frozen = false;
  }

  /** True while a timer is set. */
  get active(): boolean {
    return this.activeSet !== null && this.activeSet.size > 0;
  }

  cancelAll(): void {
    if (this.activeSet === null) return;
    for (const t of this.activeSet) if (t.handle) this.clock.clearTimer(t.handle);
    this.activeSet.clear();
  }

  private arm(timer: PausableTimer): void {
    timer.handle = this.clock.setTimer(
      () => {
        this.timerSet.delete(timer);
        timer.callback();
      },
      Math.max(0, timer.due - this.clock.now()),
    );
  }
}
