import type { ControlAuditPage, ControlAuditQuery } from '../../shared/api/control.schema';
import { matchesAudit, toAuditEntry, type ExecutionLogEntry } from './execution-log';
import { parseLogEntry } from './log-entry-codec';
import { logEntryName, serializeForStore } from './unwritable-entry-error';

/**
 * The execution log as the database stores keep it (SQLite, PostgreSQL: DUR-01, DUR-04): an entry queued for
 * the writer with its `data` already JSON (a snapshot taken at append time), a stored row, and the audit page
 * made in memory when a read must merge queued entries with the table.
 */
export interface QueuedLogRow {
  runId: string;
  type: ExecutionLogEntry['type'];
  status: string;
  actor: string;
  at: number;
  data: string | null;
}

/** A row of the `execution_log` table, `data` as JSON text (null: no data). */
export interface StoredLogRow {
  run_id: string;
  type: string;
  status: string;
  actor: string;
  at: number;
  data: string | null;
}

export const LOG_COLUMNS = 'run_id, type, status, actor, at, data';

/**
 * The row as it will be stored: data serialized now (a snapshot of the entry at append time), so a value
 * that cannot be serialized fails its append with `UnwritableEntryError` and is never queued.
 */
export function queuedLogRow(entry: ExecutionLogEntry): QueuedLogRow {
  const data = entry.data === undefined ? null : (serializeForStore(entry.data, logEntryName, entry) ?? null);
  return { runId: entry.runId, type: entry.type, status: entry.status, actor: entry.actor, at: entry.at, data };
}

export function entryOfQueued(row: QueuedLogRow): ExecutionLogEntry {
  const entry: ExecutionLogEntry = { runId: row.runId, type: row.type, status: row.status, actor: row.actor, at: row.at };
  if (row.data !== null) entry.data = JSON.parse(row.data) as unknown;
  return entry;
}

/** A stored row as an entry, its shape checked (a damaged row fails naming the field). */
export function entryOfStored(row: StoredLogRow): ExecutionLogEntry {
  return parseLogEntry({
    runId: row.run_id,
    type: row.type,
    status: row.status,
    actor: row.actor,
    at: row.at,
    ...(row.data === null ? {} : { data: JSON.parse(row.data) as unknown }),
  });
}

/** An audit page computed in memory (newest-first entries). */
export function auditPageOf(newestFirst: readonly ExecutionLogEntry[], query: ControlAuditQuery): ControlAuditPage {
  const matching = newestFirst.filter((e) => matchesAudit(e, query));
  return {
    entries: matching.slice(query.offset, query.offset + query.limit).map((e) => toAuditEntry(e as Parameters<typeof toAuditEntry>[0])),
    total: matching.length,
  };
}

/**
 * The WHERE clause of an audit query (control rows, filtered by run, actor and type) with its arguments;
 * `placeholder(n)` writes the n-th argument's marker (`?` for SQLite, `$n` for PostgreSQL).
 */
export function auditWhere(query: ControlAuditQuery, placeholder: (n: number) => string): { clause: string; args: string[] } {
  const where = ["type IN ('CONTROL_APPLIED', 'CONTROL_REJECTED')"];
  const args: string[] = [];
  const filters: Array<[string, string | undefined]> = [
    ['run_id', query.executionId],
    ['actor', query.actor],
    ['type', query.type],
  ];
  for (const [column, value] of filters) {
    if (value === undefined) continue;
    args.push(value);
    where.push(`${column} = ${placeholder(args.length)}`);
  }
  return { clause: where.join(' AND '), args };
}
