import type Database from 'better-sqlite3';
import { SCHEDULER_RUN, type ControlAuditPage, type ControlAuditQuery } from '../../../shared/api/control.schema';
import { DEFAULT_LOG_RETENTION, matchesAudit, RUN_END_TYPES, toAuditEntry, type ExecutionLog, type ExecutionLogEntry, type LogRetentionOptions } from '../execution-log';
import { parseLogEntry } from '../log-entry-codec';
import { runsToDrop, SCHEDULER_ENTRIES_KEPT } from '../log-retention';
import { serializeForStore } from '../unwritable-entry-error';
import { SqliteWriteQueue, type SqliteWriter } from './sqlite-writer';

interface LogRow {
  run_id: string;
  type: string;
  status: string;
  actor: string;
  at: number;
  data: string | null;
}

const SQL = {
  insert: 'INSERT INTO execution_log (run_id, type, status, actor, at, data) VALUES (?, ?, ?, ?, ?, ?)',
  all: 'SELECT run_id, type, status, actor, at, data FROM execution_log ORDER BY seq',
  run: 'SELECT run_id, type, status, actor, at, data FROM execution_log WHERE run_id = ? ORDER BY seq',
  /** One row per run, in order of its first entry: what `runsToDrop` looks at, summed up by SQLite instead of every row read into JS. */
  summary: `SELECT run_id, MIN(seq) AS first, MAX(type = 'RUN_STARTED') AS started, MAX(type IN (${[...RUN_END_TYPES].map((t) => `'${t}'`).join(', ')})) AS ended
    FROM execution_log GROUP BY run_id ORDER BY first`,
  deleteRun: 'DELETE FROM execution_log WHERE run_id = ?',
  trimScheduler: `DELETE FROM execution_log WHERE run_id = @run AND seq < (SELECT MIN(seq) FROM (SELECT seq FROM execution_log WHERE run_id = @run ORDER BY seq DESC LIMIT @keep))
    AND seq <> COALESCE((SELECT MAX(seq) FROM execution_log WHERE run_id = @run AND data IS NOT NULL), -1)`,
} as const;

type Statements = { [K in keyof typeof SQL]: Database.Statement };

/**
 * The execution log in SQLite (DUR-01; the desktop default, `<data>/yukta.db`): rows are queued and written
 * by the database's one writer (`SqliteWriter`) in batched transactions; `fsync=true` is the connection's
 * `synchronous=FULL`. Every `compactAfter` appends the runs beyond retention are deleted in one transaction.
 * Reads first write what is queued, so they see every append.
 */
export class SqliteExecutionLog implements ExecutionLog {
  private readonly sql: Statements;
  private readonly queue: SqliteWriteQueue<QueuedRow>;
  private readonly retention: LogRetentionOptions;
  private sinceTrim = 0;

  constructor(
    private readonly writer: SqliteWriter,
    retention: Partial<LogRetentionOptions> = {},
  ) {
    const db = writer.db;
    this.sql = Object.fromEntries(Object.entries(SQL).map(([k, text]) => [k, db.prepare(text)])) as Statements;
    this.retention = { ...DEFAULT_LOG_RETENTION, ...retention };
    const insert = this.sql.insert;
    this.queue = new SqliteWriteQueue<QueuedRow>(writer, (r) => {
      insert.run(r.runId, r.type, r.status, r.actor, r.at, r.data);
    });
  }

  append(entry: ExecutionLogEntry): void {
    // The row as it will be stored: data serialized now (a snapshot of the entry at append time), so a value
    // that cannot be serialized fails this append and is never queued.
    const data = entry.data === undefined ? null : (serializeForStore(`the ${entry.type} entry of ${entry.runId}`, entry.data) ?? null);
    this.queue.push({ runId: entry.runId, type: entry.type, status: entry.status, actor: entry.actor, at: entry.at, data });
    if (++this.sinceTrim >= this.retention.compactAfter) {
      this.sinceTrim = 0;
      setImmediate(() => this.trimQuietly());
    }
  }

  flush(): Promise<void> {
    return this.writer.flush();
  }

  async query(query: ControlAuditQuery): Promise<ControlAuditPage> {
    const queued = this.drainForRead();
    if (queued.length > 0) return auditPage([...(await this.entries()), ...queued].reverse(), query);
    const where = ["type IN ('CONTROL_APPLIED', 'CONTROL_REJECTED')"];
    const args: unknown[] = [];
    const filters: Array<[string, string | undefined]> = [['run_id', query.executionId], ['actor', query.actor], ['type', query.type]];
    for (const [column, value] of filters) {
      if (value === undefined) continue;
      where.push(`${column} = ?`);
      args.push(value);
    }
    const clause = where.join(' AND ');
    const db = this.writer.db;
    const { total } = db.prepare(`SELECT COUNT(*) AS total FROM execution_log WHERE ${clause}`).get(...args) as { total: number };
    const rows = db.prepare(`SELECT run_id, type, status, actor, at, data FROM execution_log WHERE ${clause} ORDER BY seq DESC LIMIT ? OFFSET ?`).all(...args, query.limit, query.offset) as LogRow[];
    return { entries: rows.map((r) => toAuditEntry(toEntry(r) as Parameters<typeof toAuditEntry>[0])), total };
  }

  async entries(): Promise<ExecutionLogEntry[]> {
    const queued = this.drainForRead();
    return [...(this.sql.all.all() as LogRow[]).map(toEntry), ...queued];
  }

  async runEntries(runId: string): Promise<ExecutionLogEntry[]> {
    const queued = this.drainForRead().filter((e) => e.runId === runId);
    return [...(this.sql.run.all(runId) as LogRow[]).map(toEntry), ...queued];
  }

  /** Writes what is queued so a read sees it; if the write fails (disk full), returns the queued entries to merge instead. */
  private drainForRead(): ExecutionLogEntry[] {
    try {
      this.writer.drainNow();
      return [];
    } catch {
      return this.queue.waiting().map(toEntryFromQueued);
    }
  }

  /** Deletes the runs beyond retention (and old scheduler rows) in one transaction. */
  trim(): void {
    this.writer.drainNow();
    // Each run as the entries runsToDrop needs: a start if it has one, an end if it has one, else one entry.
    const summary: ExecutionLogEntry[] = [];
    for (const r of this.sql.summary.all() as Array<{ run_id: string; started: number; ended: number }>) {
      summary.push({ runId: r.run_id, type: r.started ? 'RUN_STARTED' : 'NODE_FINISHED', status: '', actor: '', at: 0 });
      if (r.ended) summary.push({ runId: r.run_id, type: 'RUN_FINISHED', status: '', actor: '', at: 0 });
    }
    const drop = runsToDrop(summary, this.retention);
    this.writer.db
      .transaction(() => {
        for (const runId of drop) this.sql.deleteRun.run(runId);
        this.sql.trimScheduler.run({ run: SCHEDULER_RUN, keep: SCHEDULER_ENTRIES_KEPT });
      })
      .immediate();
  }

  async close(): Promise<void> {
    this.writer.drainNow();
  }

  private trimQuietly(): void {
    try {
      this.trim();
    } catch {
      // A trim that fails (busy, full) is tried again after the next compactAfter appends.
    }
  }
}

/** An entry queued for the writer: the row's columns, `data` already JSON. */
interface QueuedRow {
  runId: string;
  type: ExecutionLogEntry['type'];
  status: string;
  actor: string;
  at: number;
  data: string | null;
}

function toEntryFromQueued(row: QueuedRow): ExecutionLogEntry {
  const entry: ExecutionLogEntry = { runId: row.runId, type: row.type, status: row.status, actor: row.actor, at: row.at };
  if (row.data !== null) entry.data = JSON.parse(row.data) as unknown;
  return entry;
}

function toEntry(row: LogRow): ExecutionLogEntry {
  return parseLogEntry({ runId: row.run_id, type: row.type, status: row.status, actor: row.actor, at: row.at, ...(row.data === null ? {} : { data: JSON.parse(row.data) as unknown }) });
}

/** An audit page computed in memory (newest-first entries). */
function auditPage(newestFirst: ExecutionLogEntry[], query: ControlAuditQuery): ControlAuditPage {
  const matching = newestFirst.filter((e) => matchesAudit(e, query));
  return { entries: matching.slice(query.offset, query.offset + query.limit).map((e) => toAuditEntry(e as Parameters<typeof toAuditEntry>[0])), total: matching.length };
}
