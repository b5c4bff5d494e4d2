import type { ControlAuditPage, ControlAuditQuery } from '../../../shared/api/control.schema';
import type { ExecutionLog, ExecutionLogEntry } from '../execution-log';

/** Rows kept by the memory log unless told otherwise. */
export const DEFAULT_MAX_LOG_ENTRIES = 10_000;

/** The execution log in memory: the newest `maxEntries` rows, oldest dropped first. */
export class MemoryExecutionLog implements ExecutionLog {
  private readonly entries: ExecutionLogEntry[] = [];

  constructor(private readonly maxEntries = DEFAULT_MAX_LOG_ENTRIES) {}

  append(entry: ExecutionLogEntry): void {
    this.entries.push({ ...entry });
    if (this.entries.length > this.maxEntries) this.entries.splice(0, this.entries.length - this.maxEntries);
  }

  query(query: ControlAuditQuery): ControlAuditPage {
    const matching: ExecutionLogEntry[] = [];
    for (let i = this.entries.length - 1; i >= 0; i--) {
      const e = this.entries[i]!;
      if (query.executionId !== undefined && e.runId !== query.executionId) continue;
      if (query.actor !== undefined && e.actor !== query.actor) continue;
      if (query.type !== undefined && e.type !== query.type) continue;
      matching.push(e);
    }
    return { entries: matching.slice(query.offset, query.offset + query.limit).map((e) => ({ ...e })), total: matching.length };
  }

  get size(): number {
    return this.entries.length;
  }
}
