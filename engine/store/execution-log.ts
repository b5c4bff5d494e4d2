import type { ControlAuditEntry, ControlAuditPage, ControlAuditQuery } from '../../shared/api/control.schema';

/**
 * One row of the execution log. The control plane writes CONTROL_APPLIED / CONTROL_REJECTED rows
 * (CTL-01); the durability issue adds its own types (run and node events) with the same shape.
 */
export type ExecutionLogEntry = ControlAuditEntry;

/**
 * Where audit rows go (CTL-01, DUR-01). Memory now; the durability issue implements it over SQLite and
 * JSONL with the same entry shape `{runId, type, status, actor, at}`.
 */
export interface ExecutionLog {
  append(entry: ExecutionLogEntry): void | Promise<void>;
  /** Rows matching the query, newest first, with the total number that match. */
  query(query: ControlAuditQuery): ControlAuditPage | Promise<ControlAuditPage>;
}
