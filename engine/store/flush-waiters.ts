import type { UnwritableEntryError } from './unwritable-entry-error';

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

/** A row that failed for good: its queue and its place in the queue's order (a count of rows appended before it). */
export interface DroppedRow {
  queue: CommitCounts;
  position: number;
  error: UnwritableEntryError;
}

/**
 * The callers of a database writer's `flush` (SQLite, PostgreSQL): each waits until every queue has committed
 * what had been appended when it called; a failed write rejects all of them with the error, and a row dropped
 * for good rejects the waiters whose flush covers it with that row's error.
 */
export class FlushWaiters {
  private waiters: Waiter[] = [];
  /** Rows dropped since the waiters were last settled. */
  private dropped: DroppedRow[] = [];

  constructor(private readonly queues: readonly CommitCounts[]) {}

  get size(): number {
    return this.waiters.length;
  }

  /** Resolves once everything appended so far is committed. */
  wait(): Promise<void> {
    if (this.queues.every((q) => q.committed >= q.appended)) return Promise.resolve();
    return new Promise<void>((resolve, reject) => this.waiters.push({ targets: this.queues.map((q) => q.appended), resolve, reject }));
  }

  /** A row was dropped: the next `settle` fails the flushes covering it. */
  rowDropped(row: DroppedRow): void {
    this.dropped.push(row);
  }

  /** A commit: the waiters it satisfied go (those covering a dropped row with its error). */
  settle(): void {
    const dropped = this.dropped;
    this.dropped = [];
    if (this.waiters.length === 0) return;
    const still: Waiter[] = [];
    for (const w of this.waiters) {
      const lost = dropped.find((d) => d.position < w.targets[this.queues.indexOf(d.queue)]!);
      if (lost) w.reject(lost.error);
      else if (w.targets.every((t, i) => this.queues[i]!.committed >= t)) w.resolve();
      else still.push(w);
    }
    this.waiters = still;
  }

  /** A failed write: every waiter gets the error (their rows stay queued). */
  rejectAll(error: unknown): void {
    this.dropped = [];
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w.reject(error);
  }
}
