import type Database from 'better-sqlite3';
import { createRequire } from 'node:module';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { BatchQueue } from '../batch-queue';
import { FlushWaiters, type DroppedRow } from '../flush-waiters';
import { isTransientWriteError, toStoreWriteError, type StoreWriteError, type StoreWriteProblem } from '../store-errors';
import { UnwritableEntryError } from '../unwritable-entry-error';
import { WriteRetry } from '../write-retry';

/** What the writer needs of a queue. */
interface WriteQueue {
  readonly appended: number;
  readonly committed: number;
  readonly pendingCount: number;
  writeSome(max: number): number;
  commit(): void;
  restore(): void;
}

/**
 * Rows one store queues for the writer (in order). `write` runs inside the writer's transaction; a
 * transaction that fails on I/O (disk full, locked) puts the rows it took back in front, so nothing is
 * lost or half-written. A row whose own write fails for any other reason is dropped on its own and
 * reported (`UnwritableEntryError`): it never blocks the rows behind it.
 */
export class SqliteWriteQueue<R> extends BatchQueue<R> implements WriteQueue {
  constructor(
    private readonly writer: SqliteWriter,
    private readonly write: (row: R) => void,
    /** A transaction rolled back: the rows still waiting (they are written again later). */
    failed?: (rows: readonly R[]) => void,
    /** A row could not be written and was dropped. */
    private readonly dropped?: (row: R, error: UnwritableEntryError) => void,
  ) {
    super(() => writer.schedule(), failed);
    writer.register(this);
  }

  /** Writes up to `max` queued rows (inside a transaction); returns how many. */
  writeSome(max: number): number {
    // Taken as a whole: an I/O error rolls every row of the transaction back.
    return this.take(max, (row, position) => {
      try {
        this.write(row);
      } catch (error) {
        if (isTransientWriteError(error)) throw error;
        this.dropRow(position, row, error);
      }
    });
  }

  private dropRow(position: number, row: R, cause: unknown): void {
    this.drop(position);
    const error = cause instanceof UnwritableEntryError ? cause : new UnwritableEntryError('a queued row', cause);
    this.dropped?.(row, error);
    this.writer.rowDropped({ queue: this, position, error });
  }
}

export interface SqliteWriterOptions {
  /** Longest a transaction writes before committing and giving the event loop a turn (8 ms). */
  budgetMs?: number;
  /** A background write failed (rows stay queued and are retried), or a row could not be written at all (dropped). */
  onError?: (error: StoreWriteProblem) => void;
  /** Retry after a failure with nobody flushing (1 s). */
  retryMs?: number;
  /**
   * Copy the WAL into the database file on a worker thread (true; not for `:memory:`), so a checkpoint and
   * its fsync never stall the event loop. If the worker cannot start or fails, SQLite's own checkpoints on
   * this connection take over again.
   */
  checkpointInWorker?: boolean;
  /** The addon the connection was opened with (`SqliteOpenOptions.nativeBinding`); the worker loads the same. */
  nativeBinding?: string | undefined;
}

/** Commits between two checkpoint requests to the worker (one at a time). */
const COMMITS_PER_CHECKPOINT = 32;
/** A WAL this long (pages; SQLite's own threshold) is checkpointed every `COMMITS_PER_CHECKPOINT_LONG_WAL` commits until it starts over. */
const LONG_WAL_PAGES = 1000;
const COMMITS_PER_CHECKPOINT_LONG_WAL = 4;
/**
 * While the worker checkpoints, this connection's own automatic checkpoint waits for a much longer WAL
 * (pages; SQLite's default is 1000): a safety net should the worker fall behind.
 */
const FALLBACK_AUTOCHECKPOINT_PAGES = 10_000;

/**
 * The checkpointer: its own connection to the same file, running passive checkpoints on request (they never
 * block the writer or readers). A new connection syncs with `synchronous=FULL`, so a checkpoint is forced
 * to disk before SQLite reuses the WAL, whatever the writer's setting.
 */
const CHECKPOINT_WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.file, workerData.nativeBinding ? { timeout: 5000, nativeBinding: workerData.nativeBinding } : { timeout: 5000 });
parentPort.on('message', () => {
  try {
    const [r] = db.pragma('wal_checkpoint(PASSIVE)');
    parentPort.postMessage({ error: null, log: r ? r.log : 0 });
  } catch (e) {
    parentPort.postMessage({ error: String((e && e.message) || e), log: 0 });
  }
});
`;

/** Where better-sqlite3 is, for the checkpoint worker (null when it cannot be resolved from here). */
function betterSqlitePath(): string | null {
  try {
    return createRequire(import.meta.url).resolve('better-sqlite3');
  } catch {
    return null;
  }
}

/** Rows written between two looks at the clock. */
const ROWS_PER_CHECK = 16;

/**
 * The one writer of a SQLite database (DUR-01, DUR-02): the execution log and the checkpoint store queue
 * rows; the writer stores them in batches, one immediate transaction per turn of the event loop, ending a
 * transaction after `budgetMs` so the main thread never blocks long. `flush` resolves once every row queued
 * before it is committed. A failed transaction (disk full: SQLITE_FULL; locked beyond the busy timeout:
 * SQLITE_BUSY) rolls back; its rows stay queued, the waiters get a typed `StoreWriteError`.
 */
export class SqliteWriter {
  private readonly queues: WriteQueue[] = [];
  private readonly waiters = new FlushWaiters(this.queues);
  private scheduled = false;
  private readonly retry = new WriteRetry(() => this.schedule());
  private closed = false;
  private readonly transaction: Database.Transaction<() => void>;
  /** Transactions committed (for tests and gauges). */
  commits = 0;
  /** Checkpoints the worker thread completed (for tests and gauges). */
  workerCheckpoints = 0;
  private checkpointer: Worker | null = null;
  /** `off` until the first request, `failed` once SQLite's own checkpoints are back. */
  private checkpointState: 'off' | 'idle' | 'busy' | 'failed' = 'off';
  private commitsSinceCheckpoint = 0;
  /** Frames in the WAL at the worker's last checkpoint. */
  private walPages = 0;

  constructor(
    readonly db: Database.Database,
    private readonly options: SqliteWriterOptions = {},
  ) {
    this.transaction = db.transaction(() => this.writeBatch());
  }

  register(queue: WriteQueue): void {
    this.queues.push(queue);
  }

  schedule(): void {
    if (this.scheduled || this.closed) return;
    this.scheduled = true;
    setImmediate(this.drainTurn);
  }

  /** Resolves once every row queued so far is committed; rejects with the write error if a batch failed. */
  flush(): Promise<void> {
    const done = this.waiters.wait();
    this.schedule();
    return done;
  }

  /** Writes everything queued now, synchronously (before a read that must see it, and at close). */
  drainNow(): void {
    while (this.queues.some((q) => q.pendingCount > 0)) this.commitOnce(Number.POSITIVE_INFINITY);
  }

  get queued(): number {
    let n = 0;
    for (const q of this.queues) n += q.appended - q.committed;
    return n;
  }

  close(): void {
    try {
      this.drainNow();
    } finally {
      this.closed = true;
      this.retry.cancel();
      void this.checkpointer?.terminate();
      this.checkpointer = null;
    }
  }

  private readonly drainTurn = (): void => {
    this.scheduled = false;
    if (this.closed) return;
    try {
      this.commitOnce(this.options.budgetMs ?? 8);
    } catch (error) {
      this.failed(toStoreWriteError(error, 'writing the database'));
      return;
    }
    if (this.queues.some((q) => q.pendingCount > 0)) this.schedule();
  };

  private budgetEnds = 0;

  /** One transaction: rows of every queue, in queue order, until the budget is spent. Throws the write error. */
  private commitOnce(budgetMs: number): void {
    this.budgetEnds = performance.now() + budgetMs;
    try {
      this.transaction.immediate();
    } catch (error) {
      for (const q of this.queues) q.restore();
      throw error;
    }
    for (const q of this.queues) q.commit();
    this.commits++;
    // A long WAL is checkpointed every few commits until a pass ends between two commits: SQLite then starts
    // the WAL over at the next write (writing flat out, a pass every 32 commits rarely lets it; a pass after
    // every commit doubles the fsyncs and halved throughput at synchronous=FULL).
    if (++this.commitsSinceCheckpoint >= (this.walPages >= LONG_WAL_PAGES ? COMMITS_PER_CHECKPOINT_LONG_WAL : COMMITS_PER_CHECKPOINT)) this.requestCheckpoint();
    this.waiters.settle();
  }

  /** Asks the worker for a passive checkpoint (starting it on first use), unless one is running. */
  private requestCheckpoint(): void {
    if (this.checkpointState === 'busy' || this.checkpointState === 'failed' || this.closed) return;
    if ((this.options.checkpointInWorker ?? true) === false || this.db.memory) return void (this.checkpointState = 'failed');
    this.commitsSinceCheckpoint = 0;
    if (this.checkpointer === null && !this.startCheckpointer()) return;
    this.checkpointState = 'busy';
    this.checkpointer!.postMessage(null);
  }

  private startCheckpointer(): boolean {
    const module = betterSqlitePath();
    if (module === null) return (this.checkpointFailed(), false);
    try {
      const worker = new Worker(CHECKPOINT_WORKER, {
        eval: true,
        workerData: { module, file: this.db.name, nativeBinding: this.options.nativeBinding ?? null },
      });
      worker.on('message', ({ error, log }: { error: string | null; log: number }) => {
        // A busy checkpoint (a long reader) is simply tried again later; anything else hands back to SQLite.
        if (error !== null && !/busy|locked/i.test(error)) return this.checkpointFailed();
        if (error === null) this.workerCheckpoints++;
        this.walPages = log;
        if (this.checkpointState === 'busy') this.checkpointState = 'idle';
      });
      worker.on('error', () => this.checkpointFailed());
      worker.on('exit', () => {
        if (this.checkpointer === worker) this.checkpointFailed();
      });
      // After the listeners (adding one refs the worker again): the checkpointer never keeps the process alive.
      worker.unref();
      this.checkpointer = worker;
      this.db.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
      return true;
    } catch {
      this.checkpointFailed();
      return false;
    }
  }

  /** The worker is gone: SQLite checkpoints on this connection again, at its default threshold. */
  private checkpointFailed(): void {
    this.checkpointState = 'failed';
    const worker = this.checkpointer;
    this.checkpointer = null;
    void worker?.terminate();
    try {
      if (this.db.open) this.db.pragma('wal_autocheckpoint = 1000');
    } catch {
      // The connection is closing; nothing to restore.
    }
  }

  private writeBatch(): void {
    // Each turn starts with the next queue, so a busy queue cannot starve the others.
    const n = this.queues.length;
    this.first = (this.first + 1) % Math.max(1, n);
    for (let k = 0; k < n; k++) {
      const q = this.queues[(this.first + k) % n]!;
      while (q.pendingCount > 0) {
        q.writeSome(ROWS_PER_CHECK);
        if (performance.now() >= this.budgetEnds) return;
      }
    }
  }

  private first = 0;

  /** A queue dropped a row it cannot write (its error was reported); it will not be tried again. */
  rowDropped(row: DroppedRow): void {
    this.waiters.rowDropped(row);
    this.options.onError?.(row.error);
  }

  private failed(error: StoreWriteError): void {
    this.waiters.rejectAll(error);
    this.options.onError?.(error);
    if (!this.closed) this.retry.arm(this.options.retryMs ?? 1000);
  }
}
