import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { FlushWaiters, type DroppedRow } from '../flush-waiters';
import { StoreWriteError, type StoreWriteProblem } from '../store-errors';
import { UnwritableEntryError } from '../unwritable-entry-error';
import { WriteRetry } from '../write-retry';
import { isConnectionLoss, isRowFailure, toPostgresWriteError } from './postgres-connection';

/**
 * One common table expression of the writer's batch statement: a store's rows of this batch as parameters
 * (a jsonb array of rows, `rowsParam`). Its SQL never changes for a given `key`, so the statement is prepared once per connection.
 */
export interface BatchPart {
  readonly key: string;
  /** The CTE body; `param(1)` … `param(values.length)` are its parameters. */
  sql(param: (i: number) => string): string;
  readonly values: readonly unknown[];
  /** A column of the CTE's `RETURNING` whose sum over the rows it touched comes back at commit (keyed by `key`). */
  readonly sum?: string;
}

/** What a committed batch's parts returned: each summing part's total, by its key (none when unknown). */
export type BatchSums = ReadonlyMap<string, number>;

/** How much a batch may still take (rows, and bytes of JSON text). */
export interface BatchBudget {
  rows: number;
  bytes: number;
}

/** A store's queue as the writer sees it: it takes rows into the open batch and turns them into parts. */
export interface BatchSource {
  readonly appended: number;
  readonly committed: number;
  readonly pendingCount: number;
  /** Takes rows within the budget (spending it) and returns their parts; none when nothing was taken. */
  collect(budget: BatchBudget): BatchPart[];
  /** The batch committed; `sums` are its summing parts' totals (undefined: it committed unheard, see `resolveUncertain`). */
  commit(sums?: BatchSums): void;
  /** The batch failed (with this error): its rows go back in front. True: built otherwise, they may succeed now. */
  restore(error?: unknown): boolean | void;
  /** Its next row (the one a refused one-row batch held) can never be written: dropped for good. */
  dropNext(error: UnwritableEntryError): DroppedRow | null;
}

export interface PostgresWriterOptions {
  /** A background write failed (rows stay queued and are retried), or a row was dropped (it can never be written). */
  onError?: ((error: StoreWriteProblem) => void) | undefined;
  /** Retry after a failure with nobody flushing (1 s). */
  retryMs?: number | undefined;
  /** Rows per batch statement at most (4096). */
  maxRows?: number | undefined;
  /** JSON text per batch statement at most (8 MiB). */
  maxBytes?: number | undefined;
  /**
   * How long rows nobody waits for may gather before they are written (10 ms): a commit is a round trip
   * and a WAL flush on the server, so rows that need no acknowledgement (node ends, checkpoints) ride along
   * with the next batch someone flushes, or go after this long. A `flush` writes at once.
   */
  lingerMs?: number | undefined;
  /** The leader lease's fencing (SCL-02): every batch carries its number; the database refuses a stale one. */
  fencing?: WriterFencing | undefined;
}

/** What the writer needs of a leader lease (SCL-02). */
export interface WriterFencing {
  /** The fencing number this host writes under (one no lease ever had while it has not led). */
  fence(): number;
  /**
   * The database refused a batch: another host holds the lease. True: this host led, and its writer writes
   * nothing more; false: it never led (a standby is read-only), the rows queued are dropped and writing goes on.
   */
  refused(error: StoreWriteError): boolean;
}

/** The fencing number of a host that has not led yet: no lease ever has it, so the database refuses it. */
export const NEVER_LED_FENCE = -1;

/** SQLSTATE of `yukta_check_fence` (migration 7): the batch's fencing number is not the lease's. */
export const STALE_FENCE_CODE = 'YF001';

/**
 * The one writer of a PostgreSQL database for one host (DUR-01, DUR-02): the execution log and the
 * checkpoint store queue rows; the writer stores everything queued as **one statement** — a `WITH` of
 * multi-row `INSERT … SELECT` from one jsonb array per table (and the checkpoints' deletes), which
 * PostgreSQL runs as one transaction — one batch in flight at a time, so rows arriving meanwhile form the
 * next batch (group commit). A `flush` (a start's acknowledgement) writes at once; rows nobody waits for
 * wait up to `lingerMs` to join a batch. `flush` resolves once every row queued before it is committed. A
 * failed batch leaves nothing (the statement is atomic); its rows stay queued, the waiters get a typed
 * `StoreWriteError`. A batch the server refuses for what a row holds (`isRowFailure`) is tried again a row
 * at a time until that row is found; it is dropped and reported (`UnwritableEntryError`, the flushes covering
 * it fail with it), and the rows behind it are written as usual.
 *
 * The statement also stamps the writer's row in `store_writers` with the batch number: when the connection
 * drops while a batch commits, the next attempt reads that row to learn whether it did, so a batch is never
 * written twice. The same stamp carries the leader lease's fencing number (SCL-02): a stale one fails the batch.
 */
export class PostgresWriter {
  private readonly sources: BatchSource[] = [];
  private readonly waiters = new FlushWaiters(this.sources);
  /** A batch is due at the next turn of the event loop. */
  private soon = false;
  /** Rows nobody waits for are due when this fires. */
  private linger: ReturnType<typeof setTimeout> | null = null;
  private running = false;
  /** The last batch failed: only a flush or the retry timer tries again (no retry per arriving row). */
  private failing = false;
  private closed = false;
  /** The database refused this writer's fencing number (SCL-02): nothing is written any more. */
  private fenced: StoreWriteError | null = null;
  private readonly retry = new WriteRetry(() => this.now());
  private batch = 0;
  /** A batch whose commit was not confirmed (the connection dropped): resolved before the next one. */
  private uncertain: number | null = null;
  /** Rows of a batch refused for a row it holds, still to write one at a time (0: batches as usual). */
  private isolating = 0;
  private readonly statements = new Map<string, { name: string; text: string }>();
  /** Batches committed (for tests and the benchmarks). */
  commits = 0;
  readonly writerId = randomUUID();

  private constructor(
    readonly pool: pg.Pool,
    private readonly options: PostgresWriterOptions,
  ) {}

  /** A writer with its `store_writers` row. */
  static async open(pool: pg.Pool, options: PostgresWriterOptions = {}): Promise<PostgresWriter> {
    const writer = new PostgresWriter(pool, options);
    await pool.query('INSERT INTO store_writers (writer_id, batch) VALUES ($1, 0)', [writer.writerId]);
    // Rows of hosts that died without closing: nobody asks about them after a week.
    await pool.query("DELETE FROM store_writers WHERE updated_at < now() - interval '7 days'");
    return writer;
  }

  register(source: BatchSource): void {
    this.sources.push(source);
  }

  /** Rows arrived: a batch is due now when someone waits or the batch is full, else after the linger. */
  schedule(): void {
    if (this.closed || this.fenced) return;
    if (this.waiters.size > 0 || this.queued >= this.maxRows) return this.now();
    if (this.soon || this.linger !== null || this.failing) return;
    this.linger = setTimeout(this.turn, this.options.lingerMs ?? 10);
  }

  private now(): void {
    if (this.soon) return;
    if (this.linger !== null) clearTimeout(this.linger);
    this.linger = null;
    this.soon = true;
    setImmediate(this.turn);
  }

  private get maxRows(): number {
    return this.options.maxRows ?? 4096;
  }

  /** Resolves once every row queued so far is committed; rejects with the write error if a batch failed. */
  flush(): Promise<void> {
    if (this.fenced) return Promise.reject(this.fenced);
    if (this.closed && this.queued > 0) return Promise.reject(new Error('the PostgreSQL writer is closed'));
    const done = this.waiters.wait();
    if (this.waiters.size > 0) this.now();
    return done;
  }

  /**
   * Inside a transaction that changes run state outside a batch (the log's trims): the writer's row gets its
   * fencing number, so the trigger refuses the whole transaction when another host leads (SCL-02).
   */
  async checkFence(client: pg.PoolClient): Promise<void> {
    if (!this.options.fencing) return;
    await client.query('UPDATE store_writers SET fence = $1::bigint WHERE writer_id = $2::uuid', [this.options.fencing.fence(), this.writerId]);
  }

  /** Rows queued and not committed. */
  get queued(): number {
    let n = 0;
    for (const s of this.sources) n += s.appended - s.committed;
    return n;
  }

  /** Writes what is queued, then forgets the writer's row. */
  async close(): Promise<void> {
    if (this.closed) return;
    try {
      await this.flush();
    } finally {
      this.closed = true;
      this.retry.cancel();
      if (this.linger !== null) clearTimeout(this.linger);
      await this.pool.query('DELETE FROM store_writers WHERE writer_id = $1', [this.writerId]).catch(() => undefined);
    }
  }

  private readonly turn = (): void => {
    this.soon = false;
    this.linger = null;
    if (this.running || this.closed) return;
    if (this.fenced) return;
    this.running = true;
    void this.drain().finally(() => {
      this.running = false;
      // Rows that came meanwhile: at once if someone waits for them, else after the linger.
      if (this.pending && !this.failing) this.schedule();
    });
  };

  /** One batch, then more while someone waits or a full batch is queued (one statement in flight at a time). */
  private async drain(): Promise<void> {
    try {
      if (this.uncertain !== null) await this.resolveUncertain();
      if (this.pending) await this.commitOnce();
      while (!this.closed && this.pending && (this.isolating > 0 || this.waiters.size > 0 || this.queued >= this.maxRows)) await this.commitOnce();
      this.failing = false;
    } catch (error) {
      this.failed(toPostgresWriteError(error, 'writing the PostgreSQL database'));
    }
  }

  private get pending(): boolean {
    return this.sources.some((s) => s.pendingCount > 0);
  }

  /** One batch: rows of every source, in queue order, within the budget, as one statement. Throws the write error. */
  private async commitOnce(rebuilt = false): Promise<void> {
    const rows = this.isolating > 0 ? 1 : this.maxRows;
    const budget: BatchBudget = { rows, bytes: this.options.maxBytes ?? 8 * 1024 * 1024 };
    const parts: BatchPart[] = [];
    const takers: BatchSource[] = [];
    for (const source of this.sources) {
      const before = budget.rows;
      if (before > 0) parts.push(...source.collect(budget));
      if (budget.rows < before) takers.push(source);
    }
    // Only rows a standby dropped (SCL-02): nothing to send, and its stamp would be refused again.
    if (parts.length === 0 && this.options.fencing?.fence() === NEVER_LED_FENCE) return this.committed(new Map());
    const batch = ++this.batch;
    parts.push(stampPart(this.writerId, batch, this.options.fencing ? this.options.fencing.fence() : null));
    const { name, text } = this.statement(parts);
    let result: pg.QueryResult<Record<string, number>>;
    try {
      result = await this.pool.query<Record<string, number>>({ name, text, values: parts.flatMap((p) => p.values) });
    } catch (error) {
      if (isConnectionLoss(error)) {
        this.uncertain = batch;
        throw error;
      }
      if ((error as { code?: unknown }).code === STALE_FENCE_CODE) {
        for (const s of this.sources) s.restore(error);
        throw error;
      }
      // Restored; a source that can shape the same rows otherwise (one key twice) gets one more try now.
      const again = this.sources.map((s) => s.restore(error)).some(Boolean);
      if (again && !rebuilt) return this.commitOnce(true);
      const taken = rows - budget.rows;
      if (!isRowFailure(error) || taken === 0) throw error;
      if (taken === 1) return this.dropRow(takers[0]!, error);
      // Refused for a row it holds: the same rows again one at a time, to find that row.
      this.isolating = taken;
      return this.commitOnce();
    }
    if (this.isolating > 0) this.isolating--;
    this.committed(sumsOf(parts, result.rows[0]));
  }

  /** The batch's one row (of `source`, restored) was refused for what it holds: dropped and reported; batches go on. */
  private dropRow(source: BatchSource, cause: unknown): void {
    const error = new UnwritableEntryError('a queued row', cause);
    this.isolating = 0;
    const dropped = source.dropNext(error);
    if (dropped) this.waiters.rowDropped(dropped);
    this.options.onError?.(error);
    this.waiters.settle();
  }

  /** The connection dropped during a batch: the writer's row says whether it committed. */
  private async resolveUncertain(): Promise<void> {
    const { rows } = await this.pool.query<{ batch: string }>('SELECT batch FROM store_writers WHERE writer_id = $1', [this.writerId]);
    const stored = rows[0] ? Number(rows[0].batch) : 0;
    const batch = this.uncertain!;
    this.uncertain = null;
    if (stored >= batch) this.committed();
    else for (const s of this.sources) s.restore();
  }

  private committed(sums?: BatchSums): void {
    for (const s of this.sources) s.commit(sums);
    this.commits++;
    this.waiters.settle();
  }

  /** The batch statement for this combination of parts (text built and named once). */
  private statement(parts: readonly BatchPart[]): { name: string; text: string } {
    const key = parts.map((p) => p.key).join(',');
    let statement = this.statements.get(key);
    if (!statement) {
      let offset = 0;
      const ctes = parts.map((part, i) => {
        const base = offset;
        offset += part.values.length;
        return `w${i} AS (${part.sql((k) => `$${base + k}`)})`;
      });
      const sums = parts.flatMap((part, i) => (part.sum ? [`(SELECT COALESCE(SUM(${part.sum}), 0) FROM w${i})::float8 AS w${i}`] : []));
      statement = { name: `yukta_batch_${this.statements.size + 1}`, text: `WITH ${ctes.join(',\n')} SELECT ${sums.length ? sums.join(', ') : '1'}` };
      this.statements.set(key, statement);
    }
    return statement;
  }

  private failed(error: StoreWriteError): void {
    if ((error.cause as { code?: unknown } | undefined)?.code === STALE_FENCE_CODE) return this.refusedFence(error);
    this.failing = true;
    this.waiters.rejectAll(error);
    this.options.onError?.(error);
    if (!this.closed) this.retry.arm(this.options.retryMs ?? 1000);
  }

  /**
   * Another host holds the lease (SCL-02): the rows queued stay unwritten for good (the new leader recovers
   * the runs from what is stored), every flush fails, and the lease's owner steps down. A host that never
   * led drops its rows instead (nothing of a standby is written) and keeps its writer for when it leads.
   */
  private refusedFence(cause: StoreWriteError): void {
    const error = new StoreWriteError('STORE_FENCED', `the database refused this host's writes: ${cause.message}`, { cause: cause.cause });
    this.options.onError?.(error);
    if (this.options.fencing?.refused(error) === false) {
      const dropped = new UnwritableEntryError('a row written on a standby', error);
      for (const source of this.sources) for (let row = source.dropNext(dropped); row; row = source.dropNext(dropped)) this.waiters.rowDropped(row);
      return;
    }
    this.fenced = error;
    this.retry.cancel();
    this.waiters.rejectAll(error);
  }
}

/**
 * The writer's row, stamped with the batch number (and the fencing number of the leader lease, SCL-02:
 * the trigger of migration 7 refuses a stale one, so the whole batch) inside the batch's own statement.
 */
function stampPart(writerId: string, batch: number, fence: number | null): BatchPart {
  return {
    key: 'stamp',
    sql: (p) => `UPDATE store_writers SET batch = ${p(1)}::bigint, fence = ${p(3)}::bigint, updated_at = now() WHERE writer_id = ${p(2)}::uuid`,
    values: [batch, writerId, fence],
  };
}

/** The summing parts' totals of a committed batch's result row, by part key. */
function sumsOf(parts: readonly BatchPart[], row: Record<string, number> | undefined): BatchSums {
  const sums = new Map<string, number>();
  parts.forEach((part, i) => {
    if (part.sum) sums.set(part.key, Number(row?.[`w${i}`] ?? 0));
  });
  return sums;
}
