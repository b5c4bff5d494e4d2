import type { Status } from '../../../shared/status/status';
import type { CheckpointStore, CheckpointWriter, NodeCheckpoint, RecordedMessage } from '../checkpoint-store';

/** Caps of the memory store (DUR-02). */
export interface CheckpointCaps {
  /** `yukta.restart.max-messages-per-node` (10000). */
  maxMessagesPerNode: number;
  /** `yukta.restart.max-bytes-per-node` (16 MiB): strings and byte arrays by size, other payloads 1 KiB each. */
  maxBytesPerNode: number;
}

export const DEFAULT_CHECKPOINT_CAPS: CheckpointCaps = { maxMessagesPerNode: 10_000, maxBytesPerNode: 16 * 1024 * 1024 };

/** What a payload counts against `maxBytesPerNode` when it is neither text nor bytes. */
export const OTHER_PAYLOAD_BYTES = 1024;

interface MutableCheckpoint {
  messages: RecordedMessage[];
  bytes: number;
  end: Status | null;
  overCap: string | null;
}

export function payloadBytes(payload: unknown): number {
  if (typeof payload === 'string') return payload.length;
  if (payload instanceof ArrayBuffer || ArrayBuffer.isView(payload)) return payload.byteLength;
  return OTHER_PAYLOAD_BYTES;
}

/**
 * Checkpoints in memory, by reference (messages are immutable). A node that passes a cap stops being
 * recorded and is marked over its cap, so a restart that needs it refuses instead of replaying part of
 * it. Retention is its owner's: `drop` forgets a run (the run archive drops the oldest finished runs).
 */
export class MemoryCheckpointStore implements CheckpointStore {
  private readonly runs = new Map<string, Map<string, MutableCheckpoint>>();

  constructor(private readonly caps: CheckpointCaps = DEFAULT_CHECKPOINT_CAPS) {}

  append(executionId: string, nodeId: string, message: RecordedMessage): void {
    this.appendTo(this.node(executionId, nodeId), message);
  }

  writer(executionId: string, nodeId: string): CheckpointWriter {
    const node = this.node(executionId, nodeId);
    return {
      get full() {
        return node.overCap !== null;
      },
      append: (message) => this.appendTo(node, message),
      markDone: (status) => (node.end = status),
    };
  }

  private appendTo(node: MutableCheckpoint, message: RecordedMessage): void {
    if (node.overCap !== null) return;
    const bytes = node.bytes + payloadBytes(message.payload);
    if (node.messages.length >= this.caps.maxMessagesPerNode) return this.over(node, `more than ${this.caps.maxMessagesPerNode} messages`);
    if (bytes > this.caps.maxBytesPerNode) return this.over(node, `more than ${this.caps.maxBytesPerNode} bytes`);
    node.bytes = bytes;
    node.messages.push(message);
  }

  markDone(executionId: string, nodeId: string, status: Status): void {
    this.node(executionId, nodeId).end = status;
  }

  read(executionId: string, nodeId: string): NodeCheckpoint | null {
    return this.runs.get(executionId)?.get(nodeId) ?? null;
  }

  drop(executionId: string): void {
    this.runs.delete(executionId);
  }

  /** Runs with checkpoints (for tests and gauges). */
  get runCount(): number {
    return this.runs.size;
  }

  private node(executionId: string, nodeId: string): MutableCheckpoint {
    let run = this.runs.get(executionId);
    if (!run) this.runs.set(executionId, (run = new Map()));
    let node = run.get(nodeId);
    if (!node) run.set(nodeId, (node = { messages: [], bytes: 0, end: null, overCap: null }));
    return node;
  }

  private over(node: MutableCheckpoint, reason: string): void {
    node.overCap = reason;
    node.messages = []; // a partial output is never replayed, so it is not kept either
    node.bytes = 0;
  }
}
