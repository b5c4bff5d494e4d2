import { dirname } from 'node:path';
import { isTransientWriteError, toStoreWriteError, type StoreWriteError, type StoreWriteProblem } from '../store-errors';
import { UnwritableEntryError } from '../unwritable-entry-error';
import { WriteRetry } from '../write-retry';
import type { AppendFile, LogFileSystem } from './log-file-system';

export interface JsonlAppenderOptions {
  path: string;
  fs: LogFileSystem;
  /** Force every batch to disk (`yukta.execution-log.fsync`): one fsync per batch (group commit). */
  fsync: boolean;
  /** Bytes of complete lines already in the file. */
  size: number;
  /** A background write failed (the lines stay queued), or a batch could not be written at all (dropped). */
  onError?: (error: StoreWriteProblem) => void;
  /** Retry of queued lines after a failure with nobody flushing (1 s). */
  retryMs?: number;
}

/**
 * Most characters written in one batch: a backlog that built up while the disk was full is written in
 * pieces, so joining it can never exceed the longest string V8 makes (and fail every retry the same way).
 */
const MAX_BATCH_CHARS = 16 * 1024 * 1024;

interface Waiter {
  target: number;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * The one background writer of a JSONL file (DUR-01): appends are queued and written in batches by one loop
 * on the libuv thread pool, one `write` (and one fsync when on) per batch. A failed write is cut back to the
 * last complete line, so the file is always a valid prefix; its lines stay queued and are written again at
 * the next flush (or after `retryMs`). Only I/O errors are retried: a batch that fails for another reason
 * is dropped and reported (`UnwritableEntryError`), so it never blocks the lines behind it. A rewrite
 * (compaction) writes a temp file, forces it, renames it over the log and forces the folder.
 */
export class JsonlAppender {
  private pending: string[] = [];
  private appended = 0;
  private committed = 0;
  private waiters: Waiter[] = [];
  private running: Promise<void> | null = null;
  private rewrite: (() => string) | null = null;
  private readonly retry = new WriteRetry(() => this.schedule());
  private file: AppendFile | null = null;
  private size: number;
  private closed = false;

  constructor(private readonly options: JsonlAppenderOptions) {
    this.size = options.size;
  }

  append(line: string): void {
    this.pending.push(line);
    this.appended++;
    this.schedule();
  }

  /** Resolves once every line appended so far is written (and forced, with fsync on); rejects if that failed. */
  flush(): Promise<void> {
    if (this.committed >= this.appended && this.rewrite === null) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.waiters.push({ target: this.appended, resolve, reject });
      this.schedule();
    });
  }

  /** Replaces the file's content with `produce()` (which covers every line appended so far), in the writer loop. */
  requestRewrite(produce: () => string): void {
    this.rewrite = produce;
    this.schedule();
  }

  /** Lines waiting to be written. */
  get queued(): number {
    return this.appended - this.committed;
  }

  async close(): Promise<void> {
    try {
      await this.flush();
    } finally {
      this.closed = true;
      this.retry.cancel();
      await this.running;
      await this.file?.close();
      this.file = null;
    }
  }

  private schedule(): void {
    if (this.running !== null || this.closed) return;
    this.running = new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.loop()).finally(() => (this.running = null));
  }

  private async loop(): Promise<void> {
    while (!this.closed && (this.pending.length > 0 || this.rewrite !== null)) {
      try {
        if (this.rewrite !== null) await this.rewriteNow(this.rewrite);
        else await this.writeBatch();
      } catch (error) {
        this.failed(toStoreWriteError(error, `writing ${this.options.path}`));
        return;
      }
    }
  }

  /** Takes the next lines to write: all of them, or as many as fit in `MAX_BATCH_CHARS` (at least one). */
  private takeBatch(): string[] {
    let chars = 0;
    let n = 0;
    while (n < this.pending.length && (n === 0 || chars + this.pending[n]!.length <= MAX_BATCH_CHARS)) chars += this.pending[n++]!.length;
    const lines = n === this.pending.length ? this.pending : this.pending.slice(0, n);
    this.pending = n === this.pending.length ? [] : this.pending.slice(n);
    return lines;
  }

  private async writeBatch(): Promise<void> {
    const lines = this.takeBatch();
    let data: Buffer;
    try {
      data = Buffer.from(lines.join(''), 'utf8');
    } catch (error) {
      return this.dropBatch(lines, error);
    }
    try {
      const file = this.file ?? (this.file = await this.reopen());
      await file.append(data);
      if (this.options.fsync) await file.sync();
    } catch (error) {
      await this.cutBack();
      if (!isTransientWriteError(error)) return this.dropBatch(lines, error);
      this.pending = lines.concat(this.pending);
      throw error;
    }
    this.size += data.length;
    this.committed += lines.length;
    this.settle();
  }

  /** A batch that can never be written: its waiters fail with the reason, the lines behind it go on. */
  private dropBatch(lines: readonly string[], cause: unknown): void {
    const error = new UnwritableEntryError(`${lines.length} line(s) of ${this.options.path}`, cause);
    const first = this.committed;
    const still: Waiter[] = [];
    for (const w of this.waiters) {
      if (w.target > first) w.reject(error);
      else still.push(w);
    }
    this.waiters = still;
    this.committed += lines.length;
    this.options.onError?.(error);
  }

  private async rewriteNow(produce: () => string): Promise<void> {
    const { fs, path } = this.options;
    this.rewrite = null;
    const lines = this.pending;
    this.pending = [];
    const target = this.appended;
    const data = Buffer.from(produce(), 'utf8');
    const temp = `${path}.tmp`;
    try {
      await fs.writeSynced(temp, data);
      await fs.rename(temp, path);
    } catch (error) {
      this.pending = lines.concat(this.pending);
      await fs.remove(temp).catch(() => undefined);
      throw error;
    }
    await this.file?.close().catch(() => undefined);
    this.file = null;
    this.size = data.length;
    this.committed = target;
    await fs.syncDir(dirname(path));
    this.settle();
  }

  /** Opens the file for appending, first cutting off whatever a failed write left after the last complete line. */
  private async reopen(): Promise<AppendFile> {
    const { fs, path } = this.options;
    if ((await fs.size(path)) > this.size) await fs.truncate(path, this.size);
    return fs.openAppend(path);
  }

  /** After a failed append: cut the file back to its last complete line (or reopen it next time). */
  private async cutBack(): Promise<void> {
    try {
      await this.options.fs.truncate(this.options.path, this.size);
    } catch {
      // The next batch reopens the file; its size is checked then.
    }
    await this.file?.close().catch(() => undefined);
    this.file = null;
  }

  private settle(): void {
    const still: Waiter[] = [];
    for (const w of this.waiters) {
      if (w.target <= this.committed) w.resolve();
      else still.push(w);
    }
    this.waiters = still;
  }

  private failed(error: StoreWriteError): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w.reject(error);
    this.options.onError?.(error);
    if (!this.closed) this.retry.arm(this.options.retryMs ?? 1000);
  }
}
