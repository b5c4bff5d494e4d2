import type Database from 'better-sqlite3';
import { SCHEDULER_RUN, type ControlAuditPage, type ControlAuditQuery } from '../../../shared/api/control.schema';
import { DEFAULT_LOG_RETENTION, RUN_END_TYPES, toAuditEntry, type ExecutionLog, type ExecutionLogEntry, type LogRetentionOptions } from '../execution-log';
import { SCHEDULER_ENTRIES_KEPT } from '../log-retention';
import { auditPageOf, auditWhere, entryOfQueued, entryOfStored, queuedLogRow, type QueuedLogRow, type StoredLogRow } from '../log-rows';
import { RunSummaries } from '../run-summaries';
import { SqliteWriteQueue, type SqliteWriter } from './sqlite-writer';

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
 * `synchronous=FULL`. Every `compactAfter` appends the runs beyond retention are deleted in one transaction
 * (which runs: `RunSummaries`, kept in step with the appends, the table summed up only at the first trim).
 * Reads first write what is queued, so they see every append.
 */
export class SqliteExecutionLog implements ExecutionLog {
  private readonly sql: Statements;
  private readonly queue: SqliteWriteQueue<QueuedLogRow>;
  private readonly retention: LogRetentionOptions;
  private sinceTrim = 0;
  private readonly summaries: RunSummaries;

  constructor(
    private readonly writer: SqliteWriter,
    retention: Partial<LogRetentionOptions> = {},
  ) {
    const db = writer.db;
    this.sql = Object.fromEntries(Object.entries(SQL).map(([k, text]) => [k, db.prepare(text)])) as Statements;
    this.retention = { ...DEFAULT_LOG_RETENTION, ...retention };
    const insert = this.sql.insert;
    const summary = this.sql.summary;
    const summaries = new RunSummaries(() =>
      (summary.all() as Array<{ run_id: string; started: number; ended: number }>).map((r) => ({
        runId: r.run_id,
        started: r.started === 1,
        ended: r.ended === 1,
      })),
    );
    this.summaries = summaries;
    this.queue = new SqliteWriteQueue<QueuedLogRow>(
      writer,
      (r) => {
        insert.run(r.runId, r.type, r.status, r.actor, r.at, r.data);
      },
      undefined,
      // A row dropped unwritten: the table no longer holds what was appended.
      () => summaries.invalidate(),
    );
  }

  append(entry: ExecutionLogEntry): void {
    this.queue.push(queuedLogRow(entry));
    this.summaries.appended(entry);
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
    if (queued.length > 0) return auditPageOf([...(await this.entries()), ...queued].reverse(), query);
    const { clause, args } = auditWhere(query, () => '?');
    const db = this.writer.db;
    const { total } = db.prepare(`SELECT COUNT(*) AS total FROM execution_log WHERE ${clause}`).get(...args) as { total: number };
    const rows = db
      .prepare(`SELECT run_id, type, status, actor, at, data FROM execution_log WHERE ${clause} ORDER BY seq DESC LIMIT ? OFFSET ?`)
      .all(...args, query.limit, query.offset) as StoredLogRow[];
    return { entries: rows.map((r) => toAuditEntry(entryOfStored(r) as Parameters<typeof toAuditEntry>[0])), total };
  }

  async entries(): Promise<ExecutionLogEntry[]> {
    const queued = this.drainForRead();
    return [...(this.sql.all.all() as StoredLogRow[]).map(entryOfStored), ...queued];
  }

  async runEntries(runId: string): Promise<ExecutionLogEntry[]> {
    const queued = this.drainForRead().filter((e) => e.runId === runId);
    return [...(this.sql.run.all(runId) as StoredLogRow[]).map(entryOfStored), ...queued];
  }

  /** Writes what is queued so a read sees it; if the write fails (disk full), returns the queued entries to merge instead. */
  private drainForRead(): ExecutionLogEntry[] {
    try {
      this.writer.drainNow();
      return [];
    } catch {
      return this.queue.waiting().map(entryOfQueued);
    }
  }

  /** Deletes the runs beyond retention (and old scheduler rows) in one transaction. */
  trim(): void {
    this.writer.drainNow();
    const drop = this.summaries.toDrop(this.retention);
    this.writer.db
      .transaction(() => {
        for (const runId of drop) this.sql.deleteRun.run(runId);
        this.sql.trimScheduler.run({ run: SCHEDULER_RUN, keep: SCHEDULER_ENTRIES_KEPT });
      })
      .immediate();
    this.summaries.deleted(drop);
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
