import type { Status } from '../../../shared/status/status';
import { parseEndStatus } from '../checkpoint-codec';
import { executionsWithQueued, messageOfStored, withQueued, type StoredMessageRow } from '../checkpoint-rows';
import type { CheckpointStats, CheckpointStore, CheckpointWriter, NodeCheckpoint, RecordedMessage } from '../checkpoint-store';
import { CheckpointBatch, DROP_MESSAGES, KEY_WRITTEN_TWICE, messageRow, PAYLOAD_BYTES, type CheckpointRow } from './checkpoint-batch';
import { preparedStatements } from './postgres-connection';
import type { BatchBudget, BatchPart, BatchSums, PostgresWriter } from './postgres-writer';
import { QueuedSource } from './queued-source';

const SQL = preparedStatements('cp', {
  messages: 'SELECT port, payload, metadata, message_id FROM checkpoint_messages WHERE execution_id = $1 AND node_id = $2 ORDER BY seq',
  state: 'SELECT end_status FROM checkpoint_nodes WHERE execution_id = $1 AND node_id = $2',
  executions: 'SELECT execution_id FROM checkpoint_nodes UNION SELECT execution_id FROM checkpoint_messages',
  bytes: `SELECT COALESCE(SUM(${PAYLOAD_BYTES}), 0)::float8 AS bytes FROM checkpoint_messages`,
});

/**
 * Checkpoints on PostgreSQL (DUR-02, DUR-04): one row per recorded message (`checkpoint_messages`) and a
 * state row per node with its end marker (`checkpoint_nodes`), queued for the database's one writer, whose
 * batch statement is atomic, so a node's messages are committed before or with its end marker. Messages
 * recorded through `append` (signal answers) get the next sequence number from the server, after what an
 * earlier process stored. Reads first write what is queued. No caps; payloads replay as plain JSON.
 * `stats().bytes` is a gauge of the payload bytes stored: read at open (`PostgresCheckpointStore.open`), up
 * by each committed batch's messages, down by what its drops deleted.
 */
export class PostgresCheckpointStore extends QueuedSource<CheckpointRow> implements CheckpointStore {
  private bytes = 0;
  /** Payload bytes of the batch in flight (counted once it commits) and whether it drops runs. */
  private batchBytes = 0;
  private batchDrops = false;
  private errors = 0;
  /** Nodes with a message row the writer dropped: their output is incomplete, so they never get an end marker. */
  private readonly incomplete = new Set<string>();
  /** The last batch wrote a key twice: build the next one as upserts, merging rows per key. */
  private merge = false;

  /** The store with its gauge read from what is stored. */
  static async open(writer: PostgresWriter): Promise<PostgresCheckpointStore> {
    const store = new PostgresCheckpointStore(writer);
    await store.readBytes();
    return store;
  }

  append(executionId: string, nodeId: string, message: RecordedMessage): void {
    this.queue.push(messageRow(executionId, nodeId, null, message));
  }

  /** The hot path: a row per message and one end marker per node, numbered here (no lookup per message). */
  writer(executionId: string, nodeId: string): CheckpointWriter {
    const queue = this.queue;
    let seq = 0;
    return {
      full: false,
      append(message) {
        queue.push(messageRow(executionId, nodeId, ++seq, message));
      },
      markDone: (status) => queue.push({ kind: 'end', executionId, nodeId, status }),
    };
  }

  markDone(executionId: string, nodeId: string, status: Status): void {
    this.queue.push({ kind: 'end', executionId, nodeId, status });
  }

  async read(executionId: string, nodeId: string): Promise<NodeCheckpoint | null> {
    const queued = await this.flushForRead();
    const pool = this.db.pool;
    const [stored, state] = await Promise.all([
      pool.query<StoredMessageRow>(SQL.messages([executionId, nodeId])),
      pool.query<{ end_status: string | null }>(SQL.state([executionId, nodeId])),
    ]);
    const messages = stored.rows.map(messageOfStored);
    const end: Status | null = state.rows[0]?.end_status ? parseEndStatus(state.rows[0].end_status) : null;
    return withQueued({ messages, end, found: state.rows.length > 0 || messages.length > 0 }, queued, executionId, nodeId);
  }

  drop(executionId: string): void {
    for (const key of this.incomplete) if (key.startsWith(`${executionId}\u0000`)) this.incomplete.delete(key);
    this.queue.push({ kind: 'drop', executionId });
  }

  async executions(): Promise<string[]> {
    const queued = await this.flushForRead();
    return executionsWithQueued(
      (await this.db.pool.query<{ execution_id: string }>(SQL.executions())).rows.map((r) => r.execution_id),
      queued,
    );
  }

  flush(): Promise<void> {
    return this.db.flush();
  }

  stats(): CheckpointStats {
    return { bytes: this.bytes, errors: this.errors };
  }

  async close(): Promise<void> {
    await this.db.flush();
  }

  /** The writer takes this store's rows into its batches (`CheckpointBatch` shapes them). */
  collect(budget: BatchBudget): BatchPart[] {
    const batch = new CheckpointBatch(this.merge);
    this.queue.take(budget.rows, (row) => {
      if (budget.bytes <= 0 || !batch.add(this.incompleteEnd(row))) return false;
      budget.rows--;
      budget.bytes -= batch.lastBytes;
    });
    const parts = batch.parts();
    this.batchBytes = batch.payloadBytes;
    this.batchDrops = parts.some((p) => p.key === DROP_MESSAGES);
    return parts;
  }

  override commit(sums?: BatchSums): void {
    this.merge = false;
    this.bytes += this.batchBytes - (sums?.get(DROP_MESSAGES) ?? 0);
    // A batch that committed unheard (the connection dropped) returned nothing: what its drops deleted is read again.
    if (sums === undefined && this.batchDrops) void this.readBytes().catch(() => undefined);
    this.batchBytes = 0;
    this.batchDrops = false;
    super.commit();
  }

  /** A row no batch can store: a dropped message makes its node incomplete (it runs again on resume). */
  protected override rowDropped(row: CheckpointRow): void {
    if (row.kind === 'drop') return;
    this.incomplete.add(`${row.executionId}\u0000${row.nodeId}`);
    this.errors++;
  }

  /** An end marker of an incomplete node is stored without its status (the node has not ended, as read back). */
  private incompleteEnd(row: CheckpointRow): CheckpointRow {
    if (row.kind !== 'end' || row.status === null || !this.incomplete.has(`${row.executionId}\u0000${row.nodeId}`)) return row;
    return { ...row, status: null };
  }

  private async readBytes(): Promise<void> {
    this.bytes = (await this.db.pool.query<{ bytes: number }>(SQL.bytes())).rows[0]!.bytes;
  }

  /** A batch that wrote a key twice is built again as upserts, one row per key (true: try it at once). */
  override restore(error?: unknown): boolean {
    const code = (error as { code?: unknown } | null)?.code;
    const again = !this.merge && typeof code === 'string' && KEY_WRITTEN_TWICE.has(code);
    // End markers that stay unwritten (`yukta.checkpoint.errors`): not those of a batch tried again at once.
    if (!again) this.errors += this.queue.waiting().filter((r) => r.kind === 'end' && r.status !== null).length;
    this.batchBytes = 0;
    this.batchDrops = false;
    this.queue.restore();
    this.merge ||= again;
    return again;
  }
}
