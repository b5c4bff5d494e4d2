import type { ControlAuditPage, ControlAuditQuery } from '../../../shared/api/control.schema';
import { DEFAULT_LOG_RETENTION, matchesAudit, toAuditEntry, type ExecutionLog, type ExecutionLogEntry, type LogRetentionOptions } from '../execution-log';
import { copyLogEntry } from '../log-entry-codec';
import { retainEntries } from '../log-retention';

/**
 * The execution log in memory (DUR-01): trimmed like the durable logs, every `compactAfter` appends, to
 * the newest `retainedRuns` runs, never dropping a run without an end. The JSONL log keeps its entries here
 * too and only writes them to disk.
 */
export class MemoryExecutionLog implements ExecutionLog {
  private list: ExecutionLogEntry[] = [];
  private sinceTrim = 0;
  private readonly retention: LogRetentionOptions;

  constructor(retention: Partial<LogRetentionOptions> = {}) {
    this.retention = { ...DEFAULT_LOG_RETENTION, ...retention };
  }

  append(entry: ExecutionLogEntry): void {
    this.list.push(copyLogEntry(entry));
    if (++this.sinceTrim >= this.retention.compactAfter) this.trim();
  }

  /** Drops the runs beyond retention now; returns the entries kept. */
  trim(): readonly ExecutionLogEntry[] {
    this.sinceTrim = 0;
    this.list = retainEntries(this.list, this.retention);
    return this.list;
  }

  /** Replaces the content (a log read back from disk at boot). */
  load(entries: ExecutionLogEntry[]): void {
    this.list = entries;
    this.sinceTrim = 0;
  }

  flush(): Promise<void> {
    return Promise.resolve();
  }

  async query(query: ControlAuditQuery): Promise<ControlAuditPage> {
    const matching: ExecutionLogEntry[] = [];
    for (let i = this.list.length - 1; i >= 0; i--) {
      const e = this.list[i]!;
      if (matchesAudit(e, query)) matching.push(e);
    }
    return {
      entries: matching.slice(query.offset, query.offset + query.limit).map((e) => toAuditEntry(e as Parameters<typeof toAuditEntry>[0])),
      total: matching.length,
    };
  }

  async entries(): Promise<ExecutionLogEntry[]> {
    return this.list.map(copy);
  }

  async runEntries(runId: string): Promise<ExecutionLogEntry[]> {
    return this.list.filter((e) => e.runId === runId).map(copy);
  }

  /** The entries held now, without copying (the JSONL log rewrites its file from them). */
  get current(): readonly ExecutionLogEntry[] {
    return this.list;
  }

  get size(): number {
    return this.list.length;
  }

  async close(): Promise<void> {}
}

function copy(e: ExecutionLogEntry): ExecutionLogEntry {
  return copyLogEntry(e);
}
