/** Stands in for a row dropped for good (`drop`): skipped by every later batch, never written again. */
const DROPPED: unique symbol = Symbol('dropped row');

/**
 * The rows one store queues for its database's one writer (DUR-01, DUR-02), in order. The writer takes rows
 * into its open batch (`take`); a committed batch is `commit`ted, a failed one `restore`d: its rows go back
 * in front and are written again, so nothing is lost or half-written. A row that fails on its own for a
 * reason other than I/O is `drop`ped instead: it never blocks the rows behind it. SQLite and PostgreSQL share it.
 */
export class BatchQueue<R> {
  private rows: Array<R | typeof DROPPED> = [];
  /** Next row to take. */
  private head = 0;
  /** First row not committed: rows from here to `head` are in the open batch. */
  private base = 0;
  /** Rows cut off the front of `rows` so far (a row's position is `removed` + its index). */
  private removed = 0;
  appended = 0;
  committed = 0;

  constructor(
    /** A row arrived: the writer schedules a batch. */
    private readonly arrived: () => void,
    /** A batch failed: the rows still waiting (they are written again later). */
    private readonly failed?: (rows: readonly R[]) => void,
  ) {}

  push(row: R): void {
    this.rows.push(row);
    this.appended++;
    this.arrived();
  }

  get pendingCount(): number {
    return this.rows.length - this.head;
  }

  /**
   * Takes up to `max` rows into the open batch, handing each to `each` with its position in the queue's
   * order (a count of rows appended before it); stops early, before a row, when `each` returns false (that
   * row stays queued). Dropped rows are passed over. Returns how many were taken.
   */
  take(max: number, each: (row: R, position: number) => boolean | void): number {
    const start = this.head;
    const end = Math.min(this.rows.length, start + max);
    let i = start;
    for (; i < end; i++) {
      const row = this.rows[i]!;
      if (row !== DROPPED && each(row, this.removed + i) === false) break;
      // Taken one by one: a throw leaves the row taken, and the batch (restored) gives every row back.
      this.head = i + 1;
    }
    return i - start;
  }

  /** The row at `position` (not committed) is dropped for good; returns it. */
  drop(position: number): R | undefined {
    const index = position - this.removed;
    if (index < this.base || index >= this.rows.length) return undefined;
    const row = this.rows[index]!;
    this.rows[index] = DROPPED;
    return row === DROPPED ? undefined : row;
  }

  /** The next row to take (not dropped) with its position, or null. */
  next(): { row: R; position: number } | null {
    for (let i = this.head; i < this.rows.length; i++) {
      const row = this.rows[i]!;
      if (row !== DROPPED) return { row, position: this.removed + i };
    }
    return null;
  }

  /** The batch committed: the rows taken are stored (or were dropped). */
  commit(): void {
    this.committed += this.head - this.base;
    this.base = this.head;
    if (this.base === this.rows.length) {
      this.removed += this.rows.length;
      this.rows = [];
      this.head = this.base = 0;
    } else if (this.base > 1024 && this.base * 2 > this.rows.length) {
      this.removed += this.base;
      this.rows = this.rows.slice(this.base);
      this.head -= this.base;
      this.base = 0;
    }
  }

  /** The batch failed: the rows taken go back in front. */
  restore(): void {
    if (this.base < this.rows.length) this.failed?.(this.waiting());
    this.head = this.base;
  }

  /** Rows queued and not committed yet, oldest first (a read merges them with the table). */
  waiting(): R[] {
    const out: R[] = [];
    for (let i = this.base; i < this.rows.length; i++) {
      const row = this.rows[i]!;
      if (row !== DROPPED) out.push(row);
    }
    return out;
  }
}
