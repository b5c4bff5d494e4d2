import type { Status } from '../../../shared/status/status';
import type { RecordedMessage } from '../checkpoint-store';
import { pgText } from './postgres-connection';
import type { BatchPart } from './postgres-writer';

/**
 * A checkpoint write as queued: a message (`seq` null: numbered by the server; payload and metadata as JSON
 * text, made when it was recorded), an end marker, or a run's drop.
 */
export type CheckpointRow =
  | { kind: 'message'; executionId: string; nodeId: string; seq: number | null; message: RecordedMessage; payload: string | null; metadata: string }
  | { kind: 'end'; executionId: string; nodeId: string; status: Status | null }
  | { kind: 'drop'; executionId: string };

interface MessageColumns {
  e: string;
  n: string;
  s: number;
  p: string;
  pl: string | null;
  md: string;
  mi: string | null;
}

const EMPTY_METADATA = '{}';
const MESSAGE_COLUMNS = 'execution_id, node_id, seq, port, payload, metadata, message_id';
const ON_MESSAGE_CONFLICT = 'ON CONFLICT (execution_id, node_id, seq) DO UPDATE SET port = EXCLUDED.port, payload = EXCLUDED.payload, metadata = EXCLUDED.metadata, message_id = EXCLUDED.message_id';

/**
 * The checkpoint rows of one writer batch, shaped for one atomic statement. Sibling parts of a statement
 * see the database as it was before it, so the batch keeps them apart: a message written again (same node
 * and number) counts once (the later one); end markers of one node merge (a null never clears an end);
 * a drop removes the run's rows taken before it, and a row of a dropped run after its drop waits for the
 * next batch (`add` refuses it). Messages numbered by the server come after those stored and those of
 * this batch.
 */
export class CheckpointBatch {
  private readonly messages = new Map<string, MessageColumns>();
  private readonly appended: Array<{ key: string; columns: MessageColumns }> = [];
  private readonly ends = new Map<string, { e: string; n: string; status: Status | null }>();
  private readonly dropped = new Set<string>();
  private readonly runs = new Set<string>();
  /** JSON text of the row just added (the batch's byte budget). */
  lastBytes = 0;
  /** Payload bytes of the batch (`yukta.checkpoint.bytes`). */
  payloadBytes = 0;

  /** Adds a row; false when it must wait for the next batch (a row of a run dropped earlier in this one). */
  add(row: CheckpointRow): boolean {
    if (row.kind === 'drop') {
      if (this.runs.has(row.executionId)) this.forget(row.executionId);
      this.dropped.add(row.executionId);
      this.lastBytes = 16;
      return true;
    }
    if (this.dropped.has(row.executionId)) return false;
    this.runs.add(row.executionId);
    const node = `${row.executionId}\u0000${row.nodeId}`;
    if (row.kind === 'end') {
      const before = this.ends.get(node);
      this.ends.set(node, { e: pgText(row.executionId), n: pgText(row.nodeId), status: row.status ?? before?.status ?? null });
      this.lastBytes = 16;
      return true;
    }
    const columns = messageColumns(row);
    this.lastBytes = 64 + (columns.pl?.length ?? 0) + columns.md.length;
    this.payloadBytes += columns.pl?.length ?? 0;
    if (row.seq === null) this.appended.push({ key: node, columns });
    else this.messages.set(`${node}\u0000${row.seq}`, columns);
    return true;
  }

  parts(): BatchPart[] {
    const parts: BatchPart[] = [];
    if (this.dropped.size) {
      const runs = [...this.dropped].map(pgText);
      parts.push({ key: 'cp-drop-messages', values: [runs], sql: (p) => `DELETE FROM checkpoint_messages WHERE execution_id = ANY(${p(1)}::text[])` });
      parts.push({ key: 'cp-drop-nodes', values: [runs], sql: (p) => `DELETE FROM checkpoint_nodes WHERE execution_id = ANY(${p(1)}::text[])` });
    }
    if (this.messages.size) parts.push(this.messagesPart());
    if (this.appended.length) parts.push(this.appendedPart());
    if (this.ends.size) {
      const cols: [string[], string[], Array<string | null>] = [[], [], []];
      for (const end of this.ends.values()) pushRow(cols, [end.e, end.n, end.status]);
      parts.push({
        key: 'cp-ends',
        values: cols,
        sql: (p) => `INSERT INTO checkpoint_nodes (execution_id, node_id, end_status) SELECT * FROM unnest(${p(1)}::text[], ${p(2)}::text[], ${p(3)}::text[])
          ON CONFLICT (execution_id, node_id) DO UPDATE SET end_status = COALESCE(EXCLUDED.end_status, checkpoint_nodes.end_status)`,
      });
    }
    return parts;
  }

  private messagesPart(): BatchPart {
    const cols: [string[], string[], number[], string[], Array<string | null>, string[], Array<string | null>] = [[], [], [], [], [], [], []];
    for (const m of this.messages.values()) pushRow(cols, [m.e, m.n, m.s, m.p, m.pl, m.md, m.mi]);
    return {
      key: 'cp-messages',
      values: cols,
      sql: (p) => `INSERT INTO checkpoint_messages (${MESSAGE_COLUMNS}) SELECT * FROM unnest(${p(1)}::text[], ${p(2)}::text[], ${p(3)}::int[], ${p(4)}::text[], ${p(5)}::json[], ${p(6)}::json[], ${p(7)}::text[]) ${ON_MESSAGE_CONFLICT}`,
    };
  }

  /** Messages numbered by the server: after the node's stored ones (`MAX(seq)`) and this batch's (`b`), in order (`k`). */
  private appendedPart(): BatchPart {
    const highest = new Map<string, number>();
    for (const m of this.messages.values()) {
      const node = `${m.e}\u0000${m.n}`;
      highest.set(node, Math.max(highest.get(node) ?? 0, m.s));
    }
    const rank = new Map<string, number>();
    const cols: [string[], string[], number[], number[], string[], Array<string | null>, string[], Array<string | null>] = [[], [], [], [], [], [], [], []];
    for (const { key, columns: m } of this.appended) {
      const k = (rank.get(key) ?? 0) + 1;
      rank.set(key, k);
      pushRow(cols, [m.e, m.n, highest.get(`${m.e}\u0000${m.n}`) ?? 0, k, m.p, m.pl, m.md, m.mi]);
    }
    return {
      key: 'cp-appended',
      values: cols,
      sql: (p) => `INSERT INTO checkpoint_messages (${MESSAGE_COLUMNS})
        SELECT u.e, u.n, GREATEST(u.b, (SELECT COALESCE(MAX(m.seq), 0) FROM checkpoint_messages m WHERE m.execution_id = u.e AND m.node_id = u.n)) + u.k, u.p, u.pl, u.md, u.mi
        FROM unnest(${p(1)}::text[], ${p(2)}::text[], ${p(3)}::int[], ${p(4)}::int[], ${p(5)}::text[], ${p(6)}::json[], ${p(7)}::json[], ${p(8)}::text[]) AS u(e, n, b, k, p, pl, md, mi)
        ${ON_MESSAGE_CONFLICT}`,
    };
  }

  /** A drop of a run with rows taken earlier in this batch: they would be stored after the delete, so they go. */
  private forget(executionId: string): void {
    const prefix = `${executionId}\u0000`;
    for (const key of this.messages.keys()) if (key.startsWith(prefix)) this.messages.delete(key);
    for (const key of this.ends.keys()) if (key.startsWith(prefix)) this.ends.delete(key);
    for (let i = this.appended.length - 1; i >= 0; i--) if (this.appended[i]!.key.startsWith(prefix)) this.appended.splice(i, 1);
    this.runs.delete(executionId);
  }
}

/**
 * A recorded message as queued: payload and metadata serialized now, so the row is a snapshot and a payload
 * JSON cannot express (a BigInt, a cycle) fails the recording call instead of every later batch.
 */
export function messageRow(executionId: string, nodeId: string, seq: number | null, message: RecordedMessage): CheckpointRow {
  const payload = message.payload === undefined ? null : (JSON.stringify(message.payload) ?? null);
  const metadata = Object.keys(message.metadata).length === 0 ? EMPTY_METADATA : JSON.stringify(message.metadata);
  return { kind: 'message', executionId, nodeId, seq, message, payload, metadata };
}

function messageColumns(row: CheckpointRow & { kind: 'message' }): MessageColumns {
  const m = row.message;
  return { e: pgText(row.executionId), n: pgText(row.nodeId), s: row.seq ?? 0, p: pgText(m.port), pl: row.payload, md: row.metadata, mi: m.messageId === undefined ? null : pgText(m.messageId) };
}

/** Appends one row to column arrays (the parameters of an `unnest`). */
function pushRow<T extends unknown[][]>(columns: T, row: { [K in keyof T]: T[K] extends Array<infer V> ? V : never }): void {
  for (let i = 0; i < columns.length; i++) columns[i]!.push(row[i]);
}
