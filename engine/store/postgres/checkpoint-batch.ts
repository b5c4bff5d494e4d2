import type { Status } from '../../../shared/status/status';
import { EMPTY_METADATA } from '../checkpoint-rows';
import type { RecordedMessage } from '../checkpoint-store';
import { checkpointName, serializeForStore } from '../unwritable-entry-error';
import { pgText, rowsOf, rowsParam } from './postgres-connection';
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

/** The key of the batch part deleting dropped runs' messages, whose sum is the payload bytes it deleted. */
export const DROP_MESSAGES = 'cp-drop-messages';
/** Payload bytes of a stored message as the gauge counts them: the UTF-8 length of its JSON text. */
export const PAYLOAD_BYTES = 'COALESCE(octet_length(payload::text), 0)';

const MESSAGE_COLUMNS = 'execution_id, node_id, seq, port, payload, metadata, message_id';
const ON_MESSAGE_CONFLICT =
  'ON CONFLICT (execution_id, node_id, seq) DO UPDATE SET port = EXCLUDED.port, payload = EXCLUDED.payload, metadata = EXCLUDED.metadata, message_id = EXCLUDED.message_id';

/**
 * SQLSTATEs of a key written twice: a plain insert meeting a stored row (`23505`), an upsert meeting one key
 * twice in its own rows (`21000`).
 */
export const KEY_WRITTEN_TWICE: ReadonlySet<string> = new Set(['23505', '21000']);

/**
 * The checkpoint rows of one writer batch, shaped for one atomic statement. Sibling parts of a statement
 * see the database as it was before it, so a drop removes the run's rows taken before it, and a row of a
 * dropped run after its drop waits for the next batch (`add` refuses it). Messages numbered by the server
 * come after those stored and those of this batch.
 *
 * A key written twice (a node recorded again, or marked done twice) does not happen on the engine's paths,
 * so rows go in as plain inserts, the cheapest for the server; should it happen, the server refuses the
 * statement (`KEY_WRITTEN_TWICE`) and the batch is built again with `merge`: one row per key (the later
 * message, a node's non-null end marker) written as upserts over what is stored.
 */
export class CheckpointBatch {
  private messages: MessageRow[] = [];
  private appended: MessageRow[] = [];
  private ends: EndRow[] = [];
  private readonly dropped = new Set<string>();
  private readonly runs = new Set<string>();
  /** JSON text of the row just added (the batch's byte budget). */
  lastBytes = 0;
  /** Payload bytes the batch stores (`yukta.checkpoint.bytes`; UTF-8, as `PAYLOAD_BYTES` counts them). */
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
    this.payloadBytes += payloadBytesOf(row);
    (row.seq === null ? this.appended : this.messages).push(row);
    return true;
  }

  parts(): BatchPart[] {
    const parts: BatchPart[] = [];
    if (this.dropped.size) {
      const runs = [...this.dropped].map(pgText);
      // The payload bytes it deletes come back at commit (the `yukta.checkpoint.bytes` gauge goes down by them).
      parts.push({
        key: DROP_MESSAGES,
        sum: 'b',
        values: [runs],
        sql: (p) => `DELETE FROM checkpoint_messages WHERE execution_id = ANY(${p(1)}::text[]) RETURNING ${PAYLOAD_BYTES} AS b`,
      });
      parts.push({ key: 'cp-drop-nodes', values: [runs], sql: (p) => `DELETE FROM checkpoint_nodes WHERE execution_id = ANY(${p(1)}::text[])` });
    }
    const messages = this.merge ? lastOfEachKey(this.messages) : this.messages;
    if (messages.length) parts.push(messagesPart(messages, this.merge));
    if (this.appended.length) parts.push(appendedPart(this.appended, messages, this.merge));
    const ends = this.merge ? mergedEnds(this.ends) : this.ends;
    if (ends.length) parts.push(endsPart(ends, this.merge));
    return parts;
  }

  /** A drop of a run with rows taken earlier in this batch: they would be stored after the delete, so they go. */
  private forget(executionId: string): void {
    const keep = (r: { executionId: string }) => r.executionId !== executionId;
    for (const m of [...this.messages, ...this.appended]) if (!keep(m)) this.payloadBytes -= payloadBytesOf(m);
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
  const payload = message.payload === undefined ? null : (serializeForStore(message.payload, checkpointName, nodeId) ?? null);
  const metadata = Object.keys(message.metadata).length === 0 ? EMPTY_METADATA : serializeForStore(message.metadata, checkpointName, nodeId);
  return { kind: 'message', executionId, nodeId, seq, message, payload, metadata };
}

function messagesPart(rows: readonly MessageRow[], upsert: boolean): BatchPart {
  const values = rows.map((r) => [pgText(r.executionId), pgText(r.nodeId), r.seq!, pgText(r.message.port), r.payload, r.metadata, messageIdOf(r)]);
  return {
    key: upsert ? 'cp-messages-upsert' : 'cp-messages',
    values: [rowsParam(values)],
    sql: (p) =>
      `INSERT INTO checkpoint_messages (${MESSAGE_COLUMNS}) SELECT r->>0, r->>1, (r->>2)::int, r->>3, (r->>4)::json, (r->>5)::json, r->>6 FROM ${rowsOf(p(1))} ${upsert ? ON_MESSAGE_CONFLICT : ''}`,
  };
}

/** Messages numbered by the server: after the node's stored ones (`MAX(seq)`) and this batch's (`b`), in order (`k`). */
function appendedPart(rows: readonly MessageRow[], numbered: readonly MessageRow[], upsert: boolean): BatchPart {
  const highest = new Map<string, number>();
  for (const m of numbered) highest.set(nodeKey(m), Math.max(highest.get(nodeKey(m)) ?? 0, m.seq!));
  const rank = new Map<string, number>();
  const values = rows.map((r) => {
    const key = nodeKey(r);
    const k = (rank.get(key) ?? 0) + 1;
    rank.set(key, k);
    return [pgText(r.executionId), pgText(r.nodeId), highest.get(key) ?? 0, k, pgText(r.message.port), r.payload, r.metadata, messageIdOf(r)];
  });
  return {
    key: upsert ? 'cp-appended-upsert' : 'cp-appended',
    values: [rowsParam(values)],
    sql: (p) => `INSERT INTO checkpoint_messages (${MESSAGE_COLUMNS})
      SELECT u.e, u.n, GREATEST(u.b, (SELECT COALESCE(MAX(m.seq), 0) FROM checkpoint_messages m WHERE m.execution_id = u.e AND m.node_id = u.n)) + u.k, u.p, u.pl, u.md, u.mi
      FROM (SELECT r->>0 AS e, r->>1 AS n, (r->>2)::int AS b, (r->>3)::int AS k, r->>4 AS p, (r->>5)::json AS pl, (r->>6)::json AS md, r->>7 AS mi FROM ${rowsOf(p(1))}) u
      ${upsert ? ON_MESSAGE_CONFLICT : ''}`,
  };
}

function endsPart(rows: readonly EndRow[], upsert: boolean): BatchPart {
  const values = rows.map((r) => [pgText(r.executionId), pgText(r.nodeId), r.status]);
  const onConflict = 'ON CONFLICT (execution_id, node_id) DO UPDATE SET end_status = COALESCE(EXCLUDED.end_status, checkpoint_nodes.end_status)';
  return {
    key: upsert ? 'cp-ends-upsert' : 'cp-ends',
    values: [rowsParam(values)],
    sql: (p) => `INSERT INTO checkpoint_nodes (execution_id, node_id, end_status) SELECT r->>0, r->>1, r->>2 FROM ${rowsOf(p(1))} ${upsert ? onConflict : ''}`,
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

function payloadBytesOf(row: MessageRow): number {
  return row.payload === null ? 0 : Buffer.byteLength(row.payload);
}
