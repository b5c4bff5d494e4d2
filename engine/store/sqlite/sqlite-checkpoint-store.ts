import type Database from 'better-sqlite3';
import type { Status } from '../../../shared/status/status';
import type { CheckpointStats, CheckpointStore, CheckpointWriter, NodeCheckpoint, RecordedMessage } from '../checkpoint-store';
import { parseEndStatus } from '../checkpoint-codec';
import { EMPTY_METADATA, executionsWithQueued, messageOfStored, withQueued, type StoredMessageRow } from '../checkpoint-rows';
import { SqliteWriteQueue, type SqliteWriter } from './sqlite-writer';

type Row =
  | { kind: 'message'; executionId: string; nodeId: string; seq: number; message: RecordedMessage }
  | { kind: 'end'; executionId: string; nodeId: string; status: Status | null }
  | { kind: 'drop'; executionId: string };

const SQL = {
  insertMessage: 'INSERT OR REPLACE INTO checkpoint_messages (execution_id, node_id, seq, port, payload, metadata, message_id) VALUES (?, ?, ?, ?, ?, ?, ?)',
  putState: 'INSERT OR REPLACE INTO checkpoint_nodes (execution_id, node_id, end_status) VALUES (?, ?, ?)',
  messages: 'SELECT port, payload, metadata, message_id FROM checkpoint_messages WHERE execution_id = ? AND node_id = ? ORDER BY seq',
  state: 'SELECT end_status FROM checkpoint_nodes WHERE execution_id = ? AND node_id = ?',
  maxSeq: 'SELECT COALESCE(MAX(seq), 0) AS seq FROM checkpoint_messages WHERE execution_id = ? AND node_id = ?',
  dropMessages: 'DELETE FROM checkpoint_messages WHERE execution_id = ?',
  dropStates: 'DELETE FROM checkpoint_nodes WHERE execution_id = ?',
  executions: 'SELECT execution_id FROM checkpoint_nodes UNION SELECT execution_id FROM checkpoint_messages',
} as const;

type Statements = { [K in keyof typeof SQL]: Database.Statement };


/**
 * Checkpoints in SQLite (DUR-02): one row per recorded message and a state row per node with its end
 * marker, queued for the database's one writer (`SqliteWriter`), so a node's messages are committed before
 * (or with) its end marker. No caps. Payloads are stored as JSON and replayed as plain JSON.
 */
export class SqliteCheckpointStore implements CheckpointStore {
  private readonly sql: Statements;
  private readonly queue: SqliteWriteQueue<Row>;
  /** Next sequence number of nodes written through `append` (signal answers), by run and node. */
  private readonly seqs = new Map<string, number>();
  private bytes = 0;
  private errors = 0;

  constructor(private readonly sqlite: SqliteWriter) {
    this.sql = Object.fromEntries(Object.entries(SQL).map(([k, text]) => [k, sqlite.db.prepare(text)])) as Statements;
    this.queue = new SqliteWriteQueue<Row>(
      sqlite,
      (row) => this.write(row),
      (rows) => (this.errors += rows.filter((r) => r.kind === 'end' && r.status !== null).length),
    );
  }

  append(executionId: string, nodeId: string, message: RecordedMessage): void {
    const key = `${executionId}\u0000${nodeId}`;
    let seq = this.seqs.get(key);
    if (seq === undefined) {
      seq = this.pendingMaxSeq(executionId, nodeId);
      this.queue.push({ kind: 'end', executionId, nodeId, status: null });
    }
    this.seqs.set(key, ++seq);
    this.queue.push({ kind: 'message', executionId, nodeId, seq, message });
  }

  /**
   * The hot path: a row per message and one end marker per node, nothing else (a node's messages without a
   * state row read as a node that has not ended; `executions` looks in both tables).
   */
  writer(executionId: string, nodeId: string): CheckpointWriter {
    const queue = this.queue;
    let seq = 0;
    return {
      full: false,
      append(message) {
        queue.push({ kind: 'message', executionId, nodeId, seq: ++seq, message });
      },
      markDone: (status) => queue.push({ kind: 'end', executionId, nodeId, status }),
    };
  }

  markDone(executionId: string, nodeId: string, status: Status): void {
    this.queue.push({ kind: 'end', executionId, nodeId, status });
  }

  async read(executionId: string, nodeId: string): Promise<NodeCheckpoint | null> {
    const queued = this.drainForRead();
    const messages = (this.sql.messages.all(executionId, nodeId) as StoredMessageRow[]).map(messageOfStored);
    const state = this.sql.state.get(executionId, nodeId) as { end_status: string | null } | undefined;
    const end = state?.end_status ? parseEndStatus(state.end_status) : null;
    return withQueued({ messages, end, found: state !== undefined || messages.length > 0 }, queued, executionId, nodeId);
  }

  drop(executionId: string): void {
    for (const key of this.seqs.keys()) if (key.startsWith(`${executionId}\u0000`)) this.seqs.delete(key);
    this.queue.push({ kind: 'drop', executionId });
  }

  async executions(): Promise<string[]> {
    const queued = this.drainForRead();
    return executionsWithQueued((this.sql.executions.all() as Array<{ execution_id: string }>).map((r) => r.execution_id), queued);
  }

  flush(): Promise<void> {
    return this.sqlite.flush();
  }

  stats(): CheckpointStats {
    return { bytes: this.bytes, errors: this.errors };
  }

  async close(): Promise<void> {
    this.sqlite.drainNow();
  }

  private write(row: Row): void {
    if (row.kind === 'message') {
      const m = row.message;
      const payload = m.payload === undefined ? null : JSON.stringify(m.payload);
      if (payload !== null) this.bytes += payload.length;
      const metadata = Object.keys(m.metadata).length === 0 ? EMPTY_METADATA : JSON.stringify(m.metadata);
      this.sql.insertMessage.run(row.executionId, row.nodeId, row.seq, m.port, payload, metadata, m.messageId ?? null);
    } else if (row.kind === 'end') {
      this.sql.putState.run(row.executionId, row.nodeId, row.status);
    } else {
      this.sql.dropMessages.run(row.executionId);
      this.sql.dropStates.run(row.executionId);
    }
  }

  /** The highest sequence number stored or queued for a node. */
  private pendingMaxSeq(executionId: string, nodeId: string): number {
    let seq = (this.sql.maxSeq.get(executionId, nodeId) as { seq: number }).seq;
    for (const r of this.queue.waiting()) if (r.kind === 'message' && r.executionId === executionId && r.nodeId === nodeId) seq = Math.max(seq, r.seq);
    return seq;
  }

  /** Writes what is queued so a read sees it; if the write fails (disk full), returns the queued rows to merge instead. */
  private drainForRead(): Row[] {
    try {
      this.sqlite.drainNow();
      return [];
    } catch {
      return this.queue.waiting();
    }
  }
}
