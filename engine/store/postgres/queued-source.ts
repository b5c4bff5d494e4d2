import { BatchQueue } from '../batch-queue';
import type { BatchBudget, BatchPart, BatchSource, PostgresWriter } from './postgres-writer';

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

  commit(): void {
    this.queue.commit();
  }

  restore(_error?: unknown): boolean | void {
    this.queue.restore();
  }

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
