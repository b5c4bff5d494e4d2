import { existsSync, mkdirSync, readFileSync, truncateSync } from 'node:fs';
import { join } from 'node:path';
import type { ControlAuditPage, ControlAuditQuery } from '../../../shared/api/control.schema';
import { DEFAULT_LOG_RETENTION, type ExecutionLog, type ExecutionLogEntry, type LogRetentionOptions } from '../execution-log';
import { logLine, parseLogEntry } from '../log-entry-codec';
import { MemoryExecutionLog } from '../memory/memory-execution-log';
import type { StoreWriteProblem } from '../store-errors';
import { JsonlAppender } from './jsonl-appender';
import { readJsonl, type JsonlRead } from './jsonl-lines';
import { NODE_LOG_FILE_SYSTEM, type LogFileSystem } from './log-file-system';

/** The log file in `yukta.execution-log.dir`. */
export const EXECUTION_LOG_FILE = 'executions.jsonl';

export interface JsonlExecutionLogOptions extends Partial<LogRetentionOptions> {
  /** `yukta.execution-log.dir`. */
  dir: string;
  /** `yukta.execution-log.fsync` (false): force every batch to disk. */
  fsync?: boolean;
  /** The file-system seam (tests inject failures). */
  fs?: LogFileSystem;
  /** A torn last line was skipped at open. */
  warn?: (message: string) => void;
  /** A background write failed (entries stay queued and are retried), or entries were dropped (not I/O). */
  onWriteError?: (error: StoreWriteProblem) => void;
}

/**
 * The execution log as a JSONL file (DUR-01): `<dir>/executions.jsonl`, one entry per line, written by one
 * background writer (`JsonlAppender`). Reads are served from memory (the retained entries); every
 * `compactAfter` appends the file is rewritten with the retained runs only (temp file, fsync, rename, fsync
 * of the folder). At open a torn last line is skipped with a warning and cut off; a damaged line before it
 * fails the open with its line number (`LogCorruptionError`).
 */
export class JsonlExecutionLog implements ExecutionLog {
  private sinceCompact = 0;

  private constructor(
    private readonly memory: MemoryExecutionLog,
    private readonly appender: JsonlAppender,
    private readonly compactAfter: number,
  ) {}

  static async open(options: JsonlExecutionLogOptions): Promise<JsonlExecutionLog> {
    const fs = options.fs ?? NODE_LOG_FILE_SYSTEM;
    const path = join(options.dir, EXECUTION_LOG_FILE);
    await fs.mkdir(options.dir);
    const read = readLogFile(path, (await fs.readFile(path)) ?? Buffer.alloc(0), options.warn);
    if (read.tornBytes > 0) await fs.truncate(path, read.validBytes);
    return JsonlExecutionLog.create(options, path, read);
  }

  /** The same, reading the file synchronously (at boot, before anything else runs). */
  static openSync(options: JsonlExecutionLogOptions): JsonlExecutionLog {
    const path = join(options.dir, EXECUTION_LOG_FILE);
    mkdirSync(options.dir, { recursive: true });
    const read = readLogFile(path, existsSync(path) ? readFileSync(path) : Buffer.alloc(0), options.warn);
    if (read.tornBytes > 0) truncateSync(path, read.validBytes);
    return JsonlExecutionLog.create(options, path, read);
  }

  private static create(options: JsonlExecutionLogOptions, path: string, read: JsonlRead<ExecutionLogEntry>): JsonlExecutionLog {
    const fs = options.fs ?? NODE_LOG_FILE_SYSTEM;
    const retention = { ...DEFAULT_LOG_RETENTION, ...pick(options) };
    // The memory copy never trims on its own: trimming and rewriting the file happen together.
    const memory = new MemoryExecutionLog({ retainedRuns: retention.retainedRuns, compactAfter: Number.POSITIVE_INFINITY });
    memory.load(read.records);
    const appender = new JsonlAppender({ path, fs, fsync: options.fsync ?? false, size: read.validBytes, onError: options.onWriteError });
    return new JsonlExecutionLog(memory, appender, retention.compactAfter);
  }

  append(entry: ExecutionLogEntry): void {
    // Serialized first: an entry that cannot be written fails here, before either copy holds it.
    const line = logLine(entry);
    this.memory.append(entry);
    this.appender.append(line);
    if (++this.sinceCompact >= this.compactAfter) this.compact();
  }

  /** Trims to the retained runs and rewrites the file with them (in the writer's order, after queued lines). */
  compact(): void {
    this.sinceCompact = 0;
    this.appender.requestRewrite(() => this.memory.trim().map(logLine).join(''));
  }

  flush(): Promise<void> {
    return this.appender.flush();
  }

  query(query: ControlAuditQuery): Promise<ControlAuditPage> {
    return this.memory.query(query);
  }

  entries(): Promise<ExecutionLogEntry[]> {
    return this.memory.entries();
  }

  runEntries(runId: string): Promise<ExecutionLogEntry[]> {
    return this.memory.runEntries(runId);
  }

  /** Lines waiting for the writer (the gauge of a slow disk). */
  get queued(): number {
    return this.appender.queued;
  }

  close(): Promise<void> {
    return this.appender.close();
  }
}

function pick(options: Partial<LogRetentionOptions>): Partial<LogRetentionOptions> {
  const out: Partial<LogRetentionOptions> = {};
  if (options.retainedRuns !== undefined) out.retainedRuns = options.retainedRuns;
  if (options.compactAfter !== undefined) out.compactAfter = options.compactAfter;
  return out;
}

/** Reads the log file; a torn last line is reported through `warn` (the caller cuts it off). */
function readLogFile(path: string, content: Buffer, warn: ((message: string) => void) | undefined): JsonlRead<ExecutionLogEntry> {
  const read = readJsonl(path, content, parseLogEntry);
  if (read.tornBytes > 0)
    warn?.(
      `${path}: skipped a torn last line (${read.tornBytes} bytes after line ${read.records.length}); the log keeps the ${read.records.length} complete entries`,
    );
  return read;
}
