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

type MessageRow = CheckpointRow & { kind: 'message' };
type EndRow = CheckpointRow & { kind: 'end' };

const EMPTY_METADATA = '{}';
const MESSAGE_COLUMNS = 'execution_id, node_id, seq, port, payload, metadata, message_id';
const ON_MESSAGE_CONFLICT = 'ON CONFLICT (execution_id, node_id, seq) DO UPDATE SET port = EXCLUDED.port, payload = EXCLUDED.payload, metadata = EXCLUDED.metadata, message_id = EXCLUDED.message_id';

/** SQLSTATE of an `ON CONFLICT DO UPDATE` meeting one key twice in its own rows. */
export const KEY_TWICE_IN_ONE_STATEMENT = '21000';

/**
 * The checkpoint rows of one writer batch, shaped for one atomic statement. Sibling parts of a statement
 * see the database as it was before it, so a drop removes the run's rows taken before it, and a row of a
 * dropped run after its drop waits for the next batch (`add` refuses it). Messages numbered by the server
 * come after those stored and those of this batch.
 *
 * One key twice in a batch (a node recorded twice at once, or marked done twice) cannot happen on the
 * engine's paths, so rows go straight into columns; should it happen, the server refuses the statement
 * (`KEY_TWICE_IN_ONE_STATEMENT`) and the batch is built again with `merge`: the later message of a key,
 * and a node's non-null end marker, win.
 */
export class CheckpointBatch {
  private messages: MessageRow[] = [];
  private appended: MessageRow[] = [];
  private ends: EndRow[] = [];
  private readonly dropped = new Set<string>();
  private readonly runs = new Set<string>();
  /** JSON text of the row just added (the batch's byte budget). */
  lastBytes = 0;
  /** Payload bytes of the batch (`yukta.checkpoint.bytes`). */
  payloadBytes = 0;

  constructor(private readonly merge = false) {}

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
    if (row.kind === 'end') {
      this.ends.push(row);
      this.lastBytes = 16;
      return true;
    }
    const bytes = row.payload?.length ?? 0;
    this.lastBytes = 64 + bytes + row.metadata.length;
    this.payloadBytes += bytes;
    (row.seq === null ? this.appended : this.messages).push(row);
    return true;
  }

  parts(): BatchPart[] {
    const parts: BatchPart[] = [];
    if (this.dropped.size) {
      const runs = [...this.dropped].map(pgText);
      parts.push({ key: 'cp-drop-messages', values: [runs], sql: (p) => `DELETE FROM checkpoint_messages WHERE execution_id = ANY(${p(1)}::text[])` });
      parts.push({ key: 'cp-drop-nodes', values: [runs], sql: (p) => `DELETE FROM checkpoint_nodes WHERE execution_id = ANY(${p(1)}::text[])` });
    }
    const messages = this.merge ? lastOfEachKey(this.messages) : this.messages;
    if (messages.length) parts.push(messagesPart(messages));
    if (this.appended.length) parts.push(appendedPart(this.appended, messages));
    const ends = this.merge ? mergedEnds(this.ends) : this.ends;
    if (ends.length) parts.push(endsPart(ends));
    return parts;
  }

  /** A drop of a run with rows taken earlier in this batch: they would be stored after the delete, so they go. */
  private forget(executionId: string): void {
    const keep = (r: { executionId: string }) => r.executionId !== executionId;
    this.messages = this.messages.filter(keep);
    this.appended = this.appended.filter(keep);
    this.ends = this.ends.filter(keep);
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

function messagesPart(rows: readonly MessageRow[]): BatchPart {
  const cols: [string[], string[], number[], string[], Array<string | null>, string[], Array<string | null>] = [[], [], [], [], [], [], []];
  for (const r of rows) pushRow(cols, [pgText(r.executionId), pgText(r.nodeId), r.seq!, pgText(r.message.port), r.payload, r.metadata, messageIdOf(r)]);
  return {
    key: 'cp-messages',
    values: cols,
    sql: (p) => `INSERT INTO checkpoint_messages (${MESSAGE_COLUMNS}) SELECT * FROM unnest(${p(1)}::text[], ${p(2)}::text[], ${p(3)}::int[], ${p(4)}::text[], ${p(5)}::json[], ${p(6)}::json[], ${p(7)}::text[]) ${ON_MESSAGE_CONFLICT}`,
  };
}

/** Messages numbered by the server: after the node's stored ones (`MAX(seq)`) and this batch's (`b`), in order (`k`). */
function appendedPart(rows: readonly MessageRow[], numbered: readonly MessageRow[]): BatchPart {
  const highest = new Map<string, number>();
  for (const m of numbered) highest.set(nodeKey(m), Math.max(highest.get(nodeKey(m)) ?? 0, m.seq!));
  const rank = new Map<string, number>();
  const cols: [string[], string[], number[], number[], string[], Array<string | null>, string[], Array<string | null>] = [[], [], [], [], [], [], [], []];
  for (const r of rows) {
    const key = nodeKey(r);
    const k = (rank.get(key) ?? 0) + 1;
    rank.set(key, k);
    pushRow(cols, [pgText(r.executionId), pgText(r.nodeId), highest.get(key) ?? 0, k, pgText(r.message.port), r.payload, r.metadata, messageIdOf(r)]);
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

function endsPart(rows: readonly EndRow[]): BatchPart {
  const cols: [string[], string[], Array<string | null>] = [[], [], []];
  for (const r of rows) pushRow(cols, [pgText(r.executionId), pgText(r.nodeId), r.status]);
  return {
    key: 'cp-ends',
    values: cols,
    sql: (p) => `INSERT INTO checkpoint_nodes (execution_id, node_id, end_status) SELECT * FROM unnest(${p(1)}::text[], ${p(2)}::text[], ${p(3)}::text[])
      ON CONFLICT (execution_id, node_id) DO UPDATE SET end_status = COALESCE(EXCLUDED.end_status, checkpoint_nodes.end_status)`,
  };
}

/** The later message of each key (node and number). */
function lastOfEachKey(rows: readonly MessageRow[]): MessageRow[] {
  return [...new Map(rows.map((r) => [`${nodeKey(r)}\u0000${r.seq}`, r] as const)).values()];
}

/** One end marker per node: a non-null status wins over null, the later over the earlier. */
function mergedEnds(rows: readonly EndRow[]): EndRow[] {
  const byNode = new Map<string, EndRow>();
  for (const r of rows) {
    const before = byNode.get(nodeKey(r));
    byNode.set(nodeKey(r), r.status === null && before ? before : r);
  }
  return [...byNode.values()];
}

function nodeKey(r: { executionId: string; nodeId: string }): string {
  return `${r.executionId}\u0000${r.nodeId}`;
}

function messageIdOf(r: MessageRow): string | null {
  return r.message.messageId === undefined ? null : pgText(r.message.messageId);
}

/** Appends one row to column arrays (the parameters of an `unnest`). */
function pushRow<T extends unknown[][]>(columns: T, row: { [K in keyof T]: T[K] extends Array<infer V> ? V : never }): void {
  for (let i = 0; i < columns.length; i++) columns[i]!.push(row[i]);
}
