import { BatchQueue } from '../batch-queue';
import type { DroppedRow } from '../flush-waiters';
import type { UnwritableEntryError } from '../unwritable-entry-error';
import type { BatchBudget, BatchPart, BatchSource, BatchSums, PostgresWriter } from './postgres-writer';

/**
 * A store whose rows wait in a queue for the database's one writer (DUR-04): the queue, what the writer
 * reads of it, and the read barrier. The store shapes its rows into the batch statement (`collect`).
 */
export abstract class QueuedSource<R> implements BatchSource {
  protected readonly queue: BatchQueue<R>;

  constructor(protected readonly db: PostgresWriter) {
    this.queue = new BatchQueue<R>(() => db.schedule());
    db.register(this);
  }

  get appended(): number {
    return this.queue.appended;
  }

  get committed(): number {
    return this.queue.committed;
  }

  get pendingCount(): number {
    return this.queue.pendingCount;
  }

  abstract collect(budget: BatchBudget): BatchPart[];

  commit(_sums?: BatchSums): void {
    this.queue.commit();
  }

  restore(_error?: unknown): boolean | void {
    this.queue.restore();
  }

  /** The next row can never be written (the writer found it alone in a refused batch): dropped for good. */
  dropNext(error: UnwritableEntryError): DroppedRow | null {
    const next = this.queue.next();
    if (!next) return null;
    this.queue.drop(next.position);
    this.rowDropped(next.row);
    return { queue: this, position: next.position, error };
  }

  /** A row was dropped (a store may mark what it leaves incomplete). */
  protected rowDropped(_row: R): void {}

  /** Writes what is queued so a read sees it; if that fails (the server is down), the queued rows to merge instead. */
  protected async flushForRead(): Promise<R[]> {
    try {
      await this.db.flush();
      return [];
    } catch {
      return this.queue.waiting();
    }
  }
}
