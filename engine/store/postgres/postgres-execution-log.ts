import { SCHEDULER_RUN, type ControlAuditPage, type ControlAuditQuery } from '../../../shared/api/control.schema';
import { DEFAULT_LOG_RETENTION, RUN_END_TYPES, toAuditEntry, type ExecutionLog, type ExecutionLogEntry, type LogRetentionOptions } from '../execution-log';
import { summaryRunsToDrop, SCHEDULER_ENTRIES_KEPT } from '../log-retention';
import { auditPageOf, auditWhere, entryOfQueued, entryOfStored, LOG_COLUMNS, queuedLogRow, type QueuedLogRow, type StoredLogRow } from '../log-rows';
import { inTransaction, pgText, preparedStatements, rowsOf, rowsParam } from './postgres-connection';
import type { BatchBudget, BatchPart, PostgresWriter } from './postgres-writer';
import { QueuedSource } from './queued-source';

const END_TYPES = [...RUN_END_TYPES].map((t) => `'${t}'`).join(', ');
const SQL = preparedStatements('log', {
  all: `SELECT ${LOG_COLUMNS} FROM execution_log ORDER BY seq`,
  run: `SELECT ${LOG_COLUMNS} FROM execution_log WHERE run_id = $1 ORDER BY seq`,
  /** One row per run, in order of its first entry: what `runsToDrop` looks at, summed up by the server. */
  summary: `SELECT run_id, MIN(seq) AS first, bool_or(type = 'RUN_STARTED') AS started, bool_or(type IN (${END_TYPES})) AS ended FROM execution_log GROUP BY run_id ORDER BY first`,
  deleteRuns: 'DELETE FROM execution_log WHERE run_id = ANY($1::text[])',
  trimScheduler: `DELETE FROM execution_log WHERE run_id = $1 AND seq < (SELECT MIN(seq) FROM (SELECT seq FROM execution_log WHERE run_id = $1 ORDER BY seq DESC LIMIT $2) newest)
    AND seq <> COALESCE((SELECT MAX(seq) FROM execution_log WHERE run_id = $1 AND data IS NOT NULL), -1)`,
});

/**
 * The execution log on PostgreSQL (DUR-01, DUR-04): rows are queued and stored by the database's one writer
 * (`PostgresWriter`) as multi-row inserts, one batch statement at a time; `flush` is the commit the start
 * acknowledgement waits for. Every `compactAfter` appends the runs beyond retention are deleted in one
 * transaction (never a run without an end). Reads first write what is queued and wait for a trim under way,
 * so they see every append and never a half-done trim.
 */
export class PostgresExecutionLog extends QueuedSource<QueuedLogRow> implements ExecutionLog {
  private readonly retention: LogRetentionOptions;
  private sinceTrim = 0;
  private trimming: Promise<void> | null = null;

  constructor(writer: PostgresWriter, retention: Partial<LogRetentionOptions> = {}) {
    super(writer);
    this.retention = { ...DEFAULT_LOG_RETENTION, ...retention };
  }

  append(entry: ExecutionLogEntry): void {
    this.queue.push(queuedLogRow(entry));
    if (++this.sinceTrim >= this.retention.compactAfter) {
      this.sinceTrim = 0;
      // Started now (it first waits for the rows before it), so a read from here on sees it done.
      void this.trim().catch(() => undefined); // a failed trim is tried again after the next compactAfter appends
    }
  }

  flush(): Promise<void> {
    return this.db.flush();
  }

  async query(query: ControlAuditQuery): Promise<ControlAuditPage> {
    const queued = await this.read();
    if (queued.length > 0) return auditPageOf([...(await this.entries()), ...queued].reverse(), query);
    const { clause, args } = auditWhere(query, (n) => `$${n}`);
    const pool = this.db.pool;
    const total = Number((await pool.query<{ total: string }>(`SELECT COUNT(*) AS total FROM execution_log WHERE ${clause}`, args)).rows[0]!.total);
    const page = await pool.query<StoredLogRow>(
      `SELECT ${LOG_COLUMNS} FROM execution_log WHERE ${clause} ORDER BY seq DESC LIMIT $${args.length + 1} OFFSET $${args.length + 2}`,
      [...args, query.limit, query.offset],
    );
    return { entries: page.rows.map((r) => toAuditEntry(entryOfStored(r) as Parameters<typeof toAuditEntry>[0])), total };
  }

  async entries(): Promise<ExecutionLogEntry[]> {
    const queued = await this.read();
    return [...(await this.db.pool.query<StoredLogRow>(SQL.all())).rows.map(entryOfStored), ...queued];
  }

  async runEntries(runId: string): Promise<ExecutionLogEntry[]> {
    const queued = (await this.read()).filter((e) => e.runId === runId);
    return [...(await this.db.pool.query<StoredLogRow>(SQL.run([runId]))).rows.map(entryOfStored), ...queued];
  }

  /** Deletes the runs beyond retention (and old scheduler rows) in one transaction; one trim at a time. */
  trim(): Promise<void> {
    return (this.trimming ??= this.trimNow().finally(() => (this.trimming = null)));
  }

  async close(): Promise<void> {
    await this.trimming?.catch(() => undefined);
    await this.db.flush();
  }

  /** The writer takes this log's rows into its batches: one jsonb array, inserted in append order. */
  collect(budget: BatchBudget): BatchPart[] {
    const rows: unknown[][] = [];
    this.queue.take(budget.rows, (r) => {
      if (budget.bytes <= 0) return false;
      rows.push([pgText(r.runId), r.type, pgText(r.status), pgText(r.actor), r.at, r.data]);
      budget.rows--;
      budget.bytes -= 64 + (r.data?.length ?? 0);
    });
    if (rows.length === 0) return [];
    return [
      {
        key: 'log',
        values: [rowsParam(rows)],
        sql: (p) =>
          `INSERT INTO execution_log (${LOG_COLUMNS}) SELECT r->>0, r->>1, r->>2, r->>3, (r->>4)::float8, (r->>5)::json FROM ${rowsOf(p(1))} ORDER BY o`,
      },
    ];
  }

  private async trimNow(): Promise<void> {
    await this.db.flush();
    await inTransaction(this.db.pool, async (client) => {
      await this.db.checkFence(client);
      const rows = (await client.query<{ run_id: string; started: boolean; ended: boolean }>(SQL.summary())).rows;
      const drop = [
        ...summaryRunsToDrop(
          rows.map((r) => ({ runId: r.run_id, started: r.started, ended: r.ended })),
          this.retention,
        ),
      ];
      if (drop.length) await client.query(SQL.deleteRuns([drop]));
      await client.query(SQL.trimScheduler([SCHEDULER_RUN, SCHEDULER_ENTRIES_KEPT]));
    });
  }

  /** The read barrier: a trim under way done, what is queued written (or, the server down, the queued entries to merge). */
  private async read(): Promise<ExecutionLogEntry[]> {
    await this.trimming?.catch(() => undefined);
    return (await this.flushForRead()).map(entryOfQueued);
  }
}
