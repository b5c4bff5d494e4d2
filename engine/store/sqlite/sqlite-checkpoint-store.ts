import type Database from 'better-sqlite3';
import type { Status } from '../../../shared/status/status';
import type { CheckpointStats, CheckpointStore, CheckpointWriter, NodeCheckpoint, RecordedMessage } from '../checkpoint-store';
import { parseEndStatus } from '../checkpoint-codec';
import { EMPTY_METADATA, executionsWithQueued, messageOfStored, withQueued, type QueuedCheckpointWrite, type StoredMessageRow } from '../checkpoint-rows';
import { checkpointName, serializeForStore } from '../unwritable-entry-error';
import { SqliteWriteQueue, type SqliteWriter } from './sqlite-writer';

/** A recorded message as it will be stored: serialized when it is queued, so a value that cannot be is the caller's error. */
interface QueuedMessage {
  port: string;
  payload: string | null;
  metadata: string;
  messageId: string | null;
}

/**
 * A queued write. `bytes` is the change the row made to the stored payload bytes when it was written (0
 * until then), taken back if its transaction rolls back: kept on the row, a field write per row instead of
 * a WeakMap entry.
 */
type Row =
  | { kind: 'message'; executionId: string; nodeId: string; seq: number; message: QueuedMessage; bytes: number }
  | { kind: 'end'; executionId: string; nodeId: string; status: Status | null }
  | { kind: 'drop'; executionId: string; bytes: number };

const SQL = {
  insertMessage: 'INSERT OR REPLACE INTO checkpoint_messages (execution_id, node_id, seq, port, payload, metadata, message_id) VALUES (?, ?, ?, ?, ?, ?, ?)',
  putState: 'INSERT OR REPLACE INTO checkpoint_nodes (execution_id, node_id, end_status) VALUES (?, ?, ?)',
  messages: 'SELECT port, payload, metadata, message_id FROM checkpoint_messages WHERE execution_id = ? AND node_id = ? ORDER BY seq',
  state: 'SELECT end_status FROM checkpoint_nodes WHERE execution_id = ? AND node_id = ?',
  maxSeq: 'SELECT COALESCE(MAX(seq), 0) AS seq FROM checkpoint_messages WHERE execution_id = ? AND node_id = ?',
  dropMessages: 'DELETE FROM checkpoint_messages WHERE execution_id = ?',
  dropStates: 'DELETE FROM checkpoint_nodes WHERE execution_id = ?',
  executions: 'SELECT execution_id FROM checkpoint_nodes UNION SELECT execution_id FROM checkpoint_messages',
  allBytes: 'SELECT COALESCE(SUM(LENGTH(CAST(payload AS BLOB))), 0) AS bytes FROM checkpoint_messages',
  runBytes: 'SELECT COALESCE(SUM(LENGTH(CAST(payload AS BLOB))), 0) AS bytes FROM checkpoint_messages WHERE execution_id = ?',
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
  /** Payload bytes stored (`yukta.checkpoint.bytes`, a gauge): read at open, moved by each committed write. */
  private bytes: number;
  private errors = 0;
  /** Nodes with a message row the writer dropped: their output is incomplete, so they never get an end marker. */
  private readonly incomplete = new Set<string>();

  constructor(private readonly sqlite: SqliteWriter) {
    this.sql = Object.fromEntries(Object.entries(SQL).map(([k, text]) => [k, sqlite.db.prepare(text)])) as Statements;
    this.bytes = (this.sql.allBytes.get() as { bytes: number }).bytes;
    this.queue = new SqliteWriteQueue<Row>(
      sqlite,
      (row) => this.write(row),
      (rows) => this.rolledBack(rows),
      (row) => this.rowDropped(row),
    );
  }

  /** A row no write can store: a dropped message makes its node incomplete (it runs again on resume). */
  private rowDropped(row: Row): void {
    if (row.kind === 'drop') return;
    this.incomplete.add(`${row.executionId}\u0000${row.nodeId}`);
    this.errors++;
  }

  append(executionId: string, nodeId: string, message: RecordedMessage): void {
    const key = `${executionId}\u0000${nodeId}`;
    let seq = this.seqs.get(key);
    if (seq === undefined) {
      seq = this.pendingMaxSeq(executionId, nodeId);
      this.queue.push({ kind: 'end', executionId, nodeId, status: null });
    }
    const queued = queuedMessage(nodeId, message);
    this.seqs.set(key, ++seq);
    this.queue.push({ kind: 'message', executionId, nodeId, seq, message: queued, bytes: 0 });
  }

  /**
   * The hot path: a row per message and one end marker per node, nothing else (a node's messages without a
   * state row read as a node that has not ended; `executions` looks in both tables).
   */
  writer(executionId: string, nodeId: string): CheckpointWriter {
    return new NodeRowWriter(this.queue, executionId, nodeId);
  }

  markDone(executionId: string, nodeId: string, status: Status): void {
    this.queue.push({ kind: 'end', executionId, nodeId, status });
  }

  async read(executionId: string, nodeId: string): Promise<NodeCheckpoint | null> {
    const queued = this.drainForRead();
    const messages = (this.sql.messages.all(executionId, nodeId) as StoredMessageRow[]).map(messageOfStored);
    const state = this.sql.state.get(executionId, nodeId) as { end_status: string | null } | undefined;
    const end = state?.end_status ? parseEndStatus(state.end_status) : null;
    return withQueued({ messages, end, found: state !== undefined || messages.length > 0 }, queued.map(toQueuedWrite), executionId, nodeId);
  }

  drop(executionId: string): void {
    for (const key of this.seqs.keys()) if (key.startsWith(`${executionId}\u0000`)) this.seqs.delete(key);
    for (const key of this.incomplete) if (key.startsWith(`${executionId}\u0000`)) this.incomplete.delete(key);
    this.queue.push({ kind: 'drop', executionId, bytes: 0 });
  }

  async executions(): Promise<string[]> {
    const queued = this.drainForRead();
    return executionsWithQueued(
      (this.sql.executions.all() as Array<{ execution_id: string }>).map((r) => r.execution_id),
      queued.map(toQueuedWrite),
    );
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
      if (m.payload !== null) this.moveBytes(row, Buffer.byteLength(m.payload));
      this.sql.insertMessage.run(row.executionId, row.nodeId, row.seq, m.port, m.payload, m.metadata, m.messageId);
    } else if (row.kind === 'end') {
      const incomplete = row.status !== null && this.incomplete.size > 0 && this.incomplete.has(`${row.executionId}\u0000${row.nodeId}`);
      this.sql.putState.run(row.executionId, row.nodeId, incomplete ? null : row.status);
    } else {
      this.moveBytes(row, -(this.sql.runBytes.get(row.executionId) as { bytes: number }).bytes);
      this.sql.dropMessages.run(row.executionId);
      this.sql.dropStates.run(row.executionId);
    }
  }

  /** A written row changed the stored bytes (the change is kept on the row until its transaction commits or rolls back). */
  private moveBytes(row: Row & { bytes: number }, delta: number): void {
    this.bytes += delta;
    row.bytes = delta;
  }

  /** A transaction rolled back: its rows' byte changes are undone; end markers among the waiting rows count as errors. */
  private rolledBack(rows: readonly Row[]): void {
    for (const row of rows) {
      if (row.kind === 'end') continue;
      this.bytes -= row.bytes;
      row.bytes = 0;
    }
    this.errors += rows.filter((r) => r.kind === 'end' && r.status !== null).length;
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

/** A node's writer on the hot path: its rows go straight to the queue, numbered from 1. */
class NodeRowWriter implements CheckpointWriter {
  readonly full = false;
  private seq = 0;

  constructor(
    private readonly queue: SqliteWriteQueue<Row>,
    private readonly executionId: string,
    private readonly nodeId: string,
  ) {}

  append(message: RecordedMessage): void {
    const queued = queuedMessage(this.nodeId, message);
    this.queue.push({ kind: 'message', executionId: this.executionId, nodeId: this.nodeId, seq: ++this.seq, message: queued, bytes: 0 });
  }

  markDone(status: Status): void {
    this.queue.push({ kind: 'end', executionId: this.executionId, nodeId: this.nodeId, status });
  }
}

/** Serializes a message for its row; throws `UnwritableEntryError` (nothing queued) when it cannot be. */
function queuedMessage(nodeId: string, m: RecordedMessage): QueuedMessage {
  const payload = m.payload === undefined ? null : (serializeForStore(m.payload, checkpointName, nodeId) ?? null);
  const metadata = isEmpty(m.metadata) ? EMPTY_METADATA : serializeForStore(m.metadata, checkpointName, nodeId);
  return { port: m.port, payload, metadata, messageId: m.messageId ?? null };
}

function isEmpty(record: Record<string, string>): boolean {
  for (const _key in record) return false;
  return true;
}

/** A queued row as a read merges it: a message as the recorded message its row will read back as. */
function toQueuedWrite(row: Row): QueuedCheckpointWrite {
  if (row.kind !== 'message') return row;
  const m = row.message;
  return {
    kind: 'message',
    executionId: row.executionId,
    nodeId: row.nodeId,
    message: messageOfStored({ port: m.port, payload: m.payload, metadata: m.metadata, message_id: m.messageId }),
  };
}
