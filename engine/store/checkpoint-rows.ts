import type { Status } from '../../shared/status/status';
import type { NodeCheckpoint, RecordedMessage } from './checkpoint-store';

/** A checkpoint write still queued for a database's writer, as a read merges it (SQLite, PostgreSQL). */
export type QueuedCheckpointWrite =
  | { readonly kind: 'message'; readonly executionId: string; readonly nodeId: string; readonly message: RecordedMessage }
  | { readonly kind: 'end'; readonly executionId: string; readonly nodeId: string; readonly status: Status | null }
  | { readonly kind: 'drop'; readonly executionId: string };

/** What a node has stored: its messages in order, its end marker, whether it has any row at all. */
export interface StoredCheckpoint {
  messages: RecordedMessage[];
  end: Status | null;
  found: boolean;
}

/** A node's checkpoint: what is stored, with the writes still queued for it (or its run) applied in order. */
export function withQueued(stored: StoredCheckpoint, queued: readonly QueuedCheckpointWrite[], executionId: string, nodeId: string): NodeCheckpoint | null {
  let { messages, end, found } = stored;
  for (const row of queued) {
    if (row.executionId !== executionId || (row.kind !== 'drop' && row.nodeId !== nodeId)) continue;
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

/** Runs with checkpoints: the stored ones with the queued writes (a drop removes its run) applied in order. */
export function executionsWithQueued(stored: Iterable<string>, queued: readonly QueuedCheckpointWrite[]): string[] {
  const ids = new Set(stored);
  for (const row of queued) {
    if (row.kind === 'drop') ids.delete(row.executionId);
    else ids.add(row.executionId);
  }
  return [...ids];
}

/** A stored message row (both databases name the columns alike): payload and metadata as JSON text. */
export interface StoredMessageRow {
  port: string;
  /** Null for an undefined payload. */
  payload: string | null;
  metadata: string | null;
  message_id: string | null;
}

/** Metadata as stored when a message has none. */
export const EMPTY_METADATA = '{}';

/** A stored message row as the recorded message it was (payloads replay as plain JSON). */
export function messageOfStored(row: StoredMessageRow): RecordedMessage {
  const metadata = row.metadata === null || row.metadata === EMPTY_METADATA ? {} : (JSON.parse(row.metadata) as Record<string, string>);
  const message: RecordedMessage = { port: row.port, payload: row.payload === null ? undefined : JSON.parse(row.payload), metadata };
  return row.message_id === null ? message : { ...message, messageId: row.message_id };
}
