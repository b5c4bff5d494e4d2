import type { ControlAuditEntry, ControlAuditPage, ControlAuditQuery } from '../../shared/api/control.schema';

/** The entry types of the execution log (DUR-01). */
export const EXECUTION_LOG_TYPES = [
  'RUN_STARTED',
  'RUN_FINISHED',
  'RUN_ABORTED',
  'CONTROL_APPLIED',
  'CONTROL_REJECTED',
  'NODE_FINISHED',
  'RUN_RESUMED',
  'IDEMPOTENCY_KEY',
] as const;
export type ExecutionLogType = (typeof EXECUTION_LOG_TYPES)[number];

/** Types that end a run in the log: a run without one is unfinished (marked ABORTED at boot). */
export const RUN_END_TYPES: ReadonlySet<ExecutionLogType> = new Set(['RUN_FINISHED', 'RUN_ABORTED']);

/**
 * One entry of the execution log: `{runId, type, status, actor, at}` like the control audit (CTL-01), plus
 * optional JSON `data` (RUN_STARTED: the start, so a resume can start it again; NODE_FINISHED: the node;
 * IDEMPOTENCY_KEY: the key; a SetLimits CONTROL_APPLIED: the limits).
 */
export interface ExecutionLogEntry {
  runId: string;
  type: ExecutionLogType;
  /** RUN_*: the run's status; NODE_FINISHED: the node's; CONTROL_*: the command (or `command: reason`). */
  status: string;
  actor: string;
  /** Engine clock, epoch milliseconds. */
  at: number;
  data?: unknown;
}

/** Retention of the log (DUR-01): `yukta.execution-log.retained-runs` and `.compact-after`. */
export interface LogRetentionOptions {
  /** Newest runs kept (1000); a run without an end is never dropped. */
  retainedRuns: number;
  /** Appends between two trims (a file rewrite for JSONL, a DELETE for SQLite): 10000. */
  compactAfter: number;
}

export const DEFAULT_LOG_RETENTION: LogRetentionOptions = { retainedRuns: 1000, compactAfter: 10_000 };

/**
 * The execution log (DUR-01): run starts and ends, node ends, resumes, idempotency keys and the control
 * audit, in append order. Memory, JSONL and SQLite implement it and pass one contract suite
 * (`execution-log.contract.ts`). Appends are queued and written by one writer in batches, so an append never
 * blocks on the disk; `flush` is the durability barrier a caller awaits before acknowledging.
 */
export interface ExecutionLog {
  /** Queues an entry; never throws for I/O (a failed write surfaces at `flush`). */
  append(entry: ExecutionLogEntry): void;
  /**
   * Resolves once every entry appended so far is stored (fsynced when the log's fsync setting is on).
   * Rejects with a `StoreWriteError` when the write failed; the entries stay queued and are written again at
   * the next flush, and the stored log stays a valid prefix.
   */
  flush(): Promise<void>;
  /** Control audit rows (CONTROL_APPLIED / CONTROL_REJECTED) matching the query, newest first, with the total. */
  query(query: ControlAuditQuery): Promise<ControlAuditPage>;
  /** Every retained entry, oldest first (boot recovery). */
  entries(): Promise<ExecutionLogEntry[]>;
  /** One run's entries, oldest first. */
  runEntries(runId: string): Promise<ExecutionLogEntry[]>;
  close(): Promise<void>;
}

/** Whether an entry is a control audit row. */
export function isAuditEntry(entry: ExecutionLogEntry): entry is ExecutionLogEntry & { type: ControlAuditEntry['type'] } {
  return entry.type === 'CONTROL_APPLIED' || entry.type === 'CONTROL_REJECTED';
}

/** The audit row of an entry, without its data. */
export function toAuditEntry(entry: ExecutionLogEntry & { type: ControlAuditEntry['type'] }): ControlAuditEntry {
  return { runId: entry.runId, type: entry.type, status: entry.status, actor: entry.actor, at: entry.at };
}

/** Does a log entry match an audit query's filters (type, run, actor)? */
export function matchesAudit(entry: ExecutionLogEntry, query: ControlAuditQuery): boolean {
  if (!isAuditEntry(entry)) return false;
  if (query.executionId !== undefined && entry.runId !== query.executionId) return false;
  if (query.actor !== undefined && entry.actor !== query.actor) return false;
  if (query.type !== undefined && entry.type !== query.type) return false;
  return true;
}
