/** What a writer's flush waits on: each of its queues' committed count (DUR-01, DUR-02). */
export interface CommitCounts {
  readonly appended: number;
  readonly committed: number;
}

interface Waiter {
  targets: number[];
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * The callers of a database writer's `flush` (SQLite, PostgreSQL): each waits until every queue has committed
 * what had been appended when it called; a failed write rejects all of them with the error.
 */
export class FlushWaiters {
  private waiters: Waiter[] = [];

  constructor(private readonly queues: readonly CommitCounts[]) {}

  get size(): number {
    return this.waiters.length;
  }

  /** Resolves once everything appended so far is committed. */
  wait(): Promise<void> {
    if (this.queues.every((q) => q.committed >= q.appended)) return Promise.resolve();
    return new Promise<void>((resolve, reject) => this.waiters.push({ targets: this.queues.map((q) => q.appended), resolve, reject }));
  }

  /** A commit: the waiters it satisfied go. */
  settle(): void {
    if (this.waiters.length === 0) return;
    const still: Waiter[] = [];
    for (const w of this.waiters) {
      if (w.targets.every((t, i) => this.queues[i]!.committed >= t)) w.resolve();
      else still.push(w);
    }
    this.waiters = still;
  }

  /** A failed write: every waiter gets the error (their rows stay queued). */
  rejectAll(error: unknown): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w.reject(error);
  }
}
