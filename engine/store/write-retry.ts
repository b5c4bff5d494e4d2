/**
 * The retry of a store's background writer after a failed write (DUR-01/02): one timer at a time, unref'd
 * so it never keeps the process alive; the queued entries stay queued until it runs.
 */
export class WriteRetry {
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly retry: () => void) {}

  /** Tries again after `ms`, unless a retry is already waiting. */
  arm(ms: number): void {
    if (this.timer !== null) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.retry();
    }, ms);
    this.timer.unref?.();
  }

  cancel(): void {
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
  }
}
