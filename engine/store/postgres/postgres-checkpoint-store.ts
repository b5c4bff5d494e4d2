import type { Status } from '../../../shared/status/status';
import { BatchQueue } from '../batch-queue';
import { parseEndStatus } from '../checkpoint-codec';
import type { CheckpointStats, CheckpointStore, CheckpointWriter, NodeCheckpoint, RecordedMessage } from '../checkpoint-store';
import { CheckpointBatch, KEY_WRITTEN_TWICE, messageRow, type CheckpointRow } from './checkpoint-batch';
import { preparedStatements } from './postgres-connection';
import type { BatchBudget, BatchPart, BatchSource, PostgresWriter } from './postgres-writer';

const SQL = preparedStatements('cp', {
  messages: 'SELECT port, payload, metadata, message_id FROM checkpoint_messages WHERE execution_id = $1 AND node_id = $2 ORDER BY seq',
  state: 'SELECT end_status FROM checkpoint_nodes WHERE execution_id = $1 AND node_id = $2',
  executions: 'SELECT execution_id FROM checkpoint_nodes UNION SELECT execution_id FROM checkpoint_messages',
});

interface MessageRow {
  port: string;
  /** JSON text (the pool hands `json` over unparsed), null for an undefined payload. */
  payload: string | null;
  metadata: string | null;
  message_id: string | null;
}

const EMPTY_METADATA = '{}';

/**
 * Checkpoints on PostgreSQL (DUR-02, DUR-04): one row per recorded message (`checkpoint_messages`) and a
 * state row per node with its end marker (`checkpoint_nodes`), queued for the database's one writer, whose
 * batch statement is atomic, so a node's messages are committed before or with its end marker. Messages
 * recorded through `append` (signal answers) get the next sequence number from the server, after what an
 * earlier process stored. Reads first write what is queued. No caps; payloads replay as plain JSON.
 */
export class PostgresCheckpointStore implements CheckpointStore, BatchSource {
  private readonly queue: BatchQueue<CheckpointRow>;
  private bytes = 0;
  private errors = 0;
  /** The last batch wrote a key twice: build the next one as upserts, merging rows per key. */
  private merge = false;

  constructor(private readonly database: PostgresWriter) {
    this.queue = new BatchQueue<CheckpointRow>(() => database.schedule());
    database.register(this);
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
    const queued = (await this.flushForRead()).filter((r) => r.executionId === executionId && (r.kind === 'drop' || r.nodeId === nodeId));
    const pool = this.database.pool;
    const [stored, state] = await Promise.all([pool.query<MessageRow>(SQL.messages([executionId, nodeId])), pool.query<{ end_status: string | null }>(SQL.state([executionId, nodeId]))]);
    let messages = stored.rows.map(toMessage);
    let end: Status | null = state.rows[0]?.end_status ? parseEndStatus(state.rows[0].end_status) : null;
    let found = state.rows.length > 0 || messages.length > 0;
    for (const row of queued) {
      if (row.kind === 'drop') {
        [messages, end, found] = [[], null, false];
        continue;
      }
      found = true;
      if (row.kind === 'message') messages = [...messages, row.message];
      else end = row.status ?? end;
    }
    return found ? { messages, end, overCap: null } : null;
  }

  drop(executionId: string): void {
    this.queue.push({ kind: 'drop', executionId });
  }

  async executions(): Promise<string[]> {
    const queued = await this.flushForRead();
    const ids = new Set((await this.database.pool.query<{ execution_id: string }>(SQL.executions())).rows.map((r) => r.execution_id));
    for (const row of queued) {
      if (row.kind === 'drop') ids.delete(row.executionId);
      else ids.add(row.executionId);
    }
    return [...ids];
  }

  flush(): Promise<void> {
    return this.database.flush();
  }

  stats(): CheckpointStats {
    return { bytes: this.bytes, errors: this.errors };
  }

  async close(): Promise<void> {
    await this.database.flush();
  }

  // BatchSource: the writer takes this store's rows into its batches.

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
    const batch = new CheckpointBatch(this.merge);
    this.queue.take(budget.rows, (row) => {
      if (budget.bytes <= 0 || !batch.add(row)) return false;
      budget.rows--;
      budget.bytes -= batch.lastBytes;
    });
    this.bytes += batch.payloadBytes;
    return batch.parts();
  }

  commit(): void {
    this.merge = false;
    this.queue.commit();
  }

  /** A batch that wrote a key twice is built again as upserts, one row per key (true: try it at once). */
  restore(error?: unknown): boolean {
    const code = (error as { code?: unknown } | null)?.code;
    const again = !this.merge && typeof code === 'string' && KEY_WRITTEN_TWICE.has(code);
    // End markers that stay unwritten (`yukta.checkpoint.errors`): not those of a batch tried again at once.
    if (!again) this.errors += this.queue.waiting().filter((r) => r.kind === 'end' && r.status !== null).length;
    this.queue.restore();
    this.merge ||= again;
    return again;
  }

  /** Writes what is queued so a read sees it; if the write fails (server down), returns the queued rows to merge instead. */
  private async flushForRead(): Promise<CheckpointRow[]> {
    try {
      await this.database.flush();
      return [];
    } catch {
      return this.queue.waiting();
    }
  }
}

function toMessage(row: MessageRow): RecordedMessage {
  const metadata = row.metadata === null || row.metadata === EMPTY_METADATA ? {} : (JSON.parse(row.metadata) as Record<string, string>);
  const message: RecordedMessage = { port: row.port, payload: row.payload === null ? undefined : JSON.parse(row.payload), metadata };
  return row.message_id === null ? message : { ...message, messageId: row.message_id };
}
