import { SCHEDULER_RUN, type ControlAuditPage, type ControlAuditQuery } from '../../../shared/api/control.schema';
import { BatchQueue } from '../batch-queue';
import { DEFAULT_LOG_RETENTION, matchesAudit, RUN_END_TYPES, toAuditEntry, type ExecutionLog, type ExecutionLogEntry, type LogRetentionOptions } from '../execution-log';
import { parseLogEntry } from '../log-entry-codec';
import { runsToDrop, SCHEDULER_ENTRIES_KEPT } from '../log-retention';
import { pgText, preparedStatements, rowsOf, rowsParam } from './postgres-connection';
import type { BatchBudget, BatchPart, BatchSource, PostgresWriter } from './postgres-writer';

interface LogRow {
  run_id: string;
  type: string;
  status: string;
  actor: string;
  at: number;
  /** JSON text, or null when the entry has no data. */
  data: string | null;
}

/** An entry queued for the writer: the row's columns, `data` already JSON text. */
interface QueuedRow {
  runId: string;
  type: ExecutionLogEntry['type'];
  status: string;
  actor: string;
  at: number;
  data: string | null;
}

const COLUMNS = 'run_id, type, status, actor, at, data';
const END_TYPES = [...RUN_END_TYPES].map((t) => `'${t}'`).join(', ');
const SQL = preparedStatements('log', {
  all: `SELECT ${COLUMNS} FROM execution_log ORDER BY seq`,
  run: `SELECT ${COLUMNS} FROM execution_log WHERE run_id = $1 ORDER BY seq`,
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
export class PostgresExecutionLog implements ExecutionLog, BatchSource {
  private readonly queue: BatchQueue<QueuedRow>;
  private readonly retention: LogRetentionOptions;
  private sinceTrim = 0;
  private trimming: Promise<void> | null = null;

  constructor(
    private readonly writer: PostgresWriter,
    retention: Partial<LogRetentionOptions> = {},
  ) {
    this.retention = { ...DEFAULT_LOG_RETENTION, ...retention };
    this.queue = new BatchQueue<QueuedRow>(() => writer.schedule());
    writer.register(this);
  }

  append(entry: ExecutionLogEntry): void {
    // The row as it will be stored: data serialized now (a snapshot of the entry at append time).
    this.queue.push({ runId: entry.runId, type: entry.type, status: entry.status, actor: entry.actor, at: entry.at, data: entry.data === undefined ? null : JSON.stringify(entry.data) });
    if (++this.sinceTrim >= this.retention.compactAfter) {
      this.sinceTrim = 0;
      // Started now (it first waits for the rows before it), so a read from here on sees it done.
      void this.trim().catch(() => undefined); // a failed trim is tried again after the next compactAfter appends
    }
  }

  flush(): Promise<void> {
    return this.writer.flush();
  }

  async query(query: ControlAuditQuery): Promise<ControlAuditPage> {
    const queued = await this.flushForRead();
    if (queued.length > 0) return auditPage([...(await this.entries()), ...queued].reverse(), query);
    const where = ["type IN ('CONTROL_APPLIED', 'CONTROL_REJECTED')"];
    const args: unknown[] = [];
    const filters: Array<[string, string | undefined]> = [['run_id', query.executionId], ['actor', query.actor], ['type', query.type]];
    for (const [column, value] of filters) {
      if (value === undefined) continue;
      args.push(value);
      where.push(`${column} = $${args.length}`);
    }
    const clause = where.join(' AND ');
    const pool = this.writer.pool;
    const total = Number((await pool.query<{ total: string }>(`SELECT COUNT(*) AS total FROM execution_log WHERE ${clause}`, args)).rows[0]!.total);
    const page = await pool.query<LogRow>(`SELECT ${COLUMNS} FROM execution_log WHERE ${clause} ORDER BY seq DESC LIMIT $${args.length + 1} OFFSET $${args.length + 2}`, [...args, query.limit, query.offset]);
    return { entries: page.rows.map((r) => toAuditEntry(toEntry(r) as Parameters<typeof toAuditEntry>[0])), total };
  }

  async entries(): Promise<ExecutionLogEntry[]> {
    const queued = await this.flushForRead();
    return [...(await this.writer.pool.query<LogRow>(SQL.all())).rows.map(toEntry), ...queued];
  }

  async runEntries(runId: string): Promise<ExecutionLogEntry[]> {
    const queued = (await this.flushForRead()).filter((e) => e.runId === runId);
    return [...(await this.writer.pool.query<LogRow>(SQL.run([runId]))).rows.map(toEntry), ...queued];
  }

  /** Deletes the runs beyond retention (and old scheduler rows) in one transaction; one trim at a time. */
  trim(): Promise<void> {
    return (this.trimming ??= this.trimNow().finally(() => (this.trimming = null)));
  }

  async close(): Promise<void> {
    await this.trimming?.catch(() => undefined);
    await this.writer.flush();
  }

  // BatchSource: the writer takes this log's rows into its batches.

  get appended(): number {
    return this.queue.appended;
  }

  get committed(): number {
    return this.queue.committed;
  }

  get pendingCount(): number {
    return this.queue.pendingCount;
  }

  collect(budget: BatchBudget): BatchPart[] {
    const rows: unknown[][] = [];
    this.queue.take(budget.rows, (r) => {
      if (budget.bytes <= 0) return false;
      rows.push([pgText(r.runId), r.type, pgText(r.status), pgText(r.actor), r.at, r.data]);
      budget.rows--;
      budget.bytes -= 64 + (r.data?.length ?? 0);
    });
    if (rows.length === 0) return [];
    return [{ key: 'log', values: [rowsParam(rows)], sql: (p) => `INSERT INTO execution_log (${COLUMNS}) SELECT r->>0, r->>1, r->>2, r->>3, (r->>4)::float8, (r->>5)::json FROM ${rowsOf(p(1))} ORDER BY o` }];
  }

  commit(): void {
    this.queue.commit();
  }

  restore(): void {
    this.queue.restore();
  }

  private async trimNow(): Promise<void> {
    await this.writer.flush();
    const client = await this.writer.pool.connect();
    try {
      const rows = (await client.query<{ run_id: string; started: boolean; ended: boolean }>(SQL.summary())).rows;
      // Each run as the entries runsToDrop needs: a start if it has one, an end if it has one, else one entry.
      const summary: ExecutionLogEntry[] = [];
      for (const r of rows) {
        summary.push({ runId: r.run_id, type: r.started ? 'RUN_STARTED' : 'NODE_FINISHED', status: '', actor: '', at: 0 });
        if (r.ended) summary.push({ runId: r.run_id, type: 'RUN_FINISHED', status: '', actor: '', at: 0 });
      }
      const drop = [...runsToDrop(summary, this.retention)];
      await client.query('BEGIN');
      if (drop.length) await client.query(SQL.deleteRuns([drop]));
      await client.query(SQL.trimScheduler([SCHEDULER_RUN, SCHEDULER_ENTRIES_KEPT]));
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  }

  /** Writes what is queued so a read sees it; if the write fails (server down), returns the queued entries to merge instead. */
  private async flushForRead(): Promise<ExecutionLogEntry[]> {
    await this.trimming?.catch(() => undefined);
    try {
      await this.writer.flush();
      return [];
    } catch {
      return this.queue.waiting().map(toEntryFromQueued);
    }
  }
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
