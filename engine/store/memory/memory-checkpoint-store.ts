import type { Status } from '../../../shared/status/status';
import type { CheckpointStats, CheckpointStore, CheckpointWriter, NodeCheckpoint, RecordedMessage } from '../checkpoint-store';
import { SpillFolder } from './spill-folder';

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
  /** The node's output moved to the spill folder (it passed a cap and a spill folder is set). */
  spilled: boolean;
}

export function payloadBytes(payload: unknown): number {
  if (typeof payload === 'string') return payload.length;
  if (payload instanceof ArrayBuffer || ArrayBuffer.isView(payload)) return payload.byteLength;
  return OTHER_PAYLOAD_BYTES;
}

export interface MemoryCheckpointOptions extends Partial<CheckpointCaps> {
  /**
   * `yukta.restart.spill-dir`: a node past a cap moves its whole output here (replayed as plain JSON) instead
   * of being marked over its cap. Emptied at startup (leftovers of an earlier process) and per dropped run;
   * do not point it at a shared folder.
   */
  spillDir?: string | undefined;
}

/**
 * Checkpoints in memory, by reference (messages are immutable). A node that passes a cap stops being
 * recorded and is marked over its cap, so a restart that needs it refuses instead of replaying part of
 * it — unless a spill folder is set. Retention is its owner's: `drop` forgets a run (the run archive drops
 * the oldest finished runs).
 */
export class MemoryCheckpointStore implements CheckpointStore {
  private readonly runs = new Map<string, Map<string, MutableCheckpoint>>();
  private readonly caps: CheckpointCaps;
  private readonly spill: SpillFolder | null;
  private bytes = 0;
  private spillErrors = 0;

  constructor(options: MemoryCheckpointOptions = DEFAULT_CHECKPOINT_CAPS) {
    this.caps = { ...DEFAULT_CHECKPOINT_CAPS, ...definedCaps(options) };
    this.spill = options.spillDir ? new SpillFolder(options.spillDir) : null;
  }

  append(executionId: string, nodeId: string, message: RecordedMessage): void {
    this.appendTo(executionId, nodeId, this.node(executionId, nodeId), message);
  }

  writer(executionId: string, nodeId: string): CheckpointWriter {
    const node = this.node(executionId, nodeId);
    return {
      get full() {
        return node.overCap !== null;
      },
      append: (message) => this.appendTo(executionId, nodeId, node, message),
      markDone: (status) => (node.end = status),
    };
  }

  private appendTo(executionId: string, nodeId: string, node: MutableCheckpoint, message: RecordedMessage): void {
    if (node.overCap !== null) return;
    if (node.spilled) return this.spilling(node, () => this.spill!.append(executionId, nodeId, message));
    const size = payloadBytes(message.payload);
    const bytes = node.bytes + size;
    if (node.messages.length >= this.caps.maxMessagesPerNode) return this.over(executionId, nodeId, node, message, `more than ${this.caps.maxMessagesPerNode} messages`);
    if (bytes > this.caps.maxBytesPerNode) return this.over(executionId, nodeId, node, message, `more than ${this.caps.maxBytesPerNode} bytes`);
    node.bytes = bytes;
    this.bytes += size;
    node.messages.push(message);
  }

  markDone(executionId: string, nodeId: string, status: Status): void {
    this.node(executionId, nodeId).end = status;
  }

  async read(executionId: string, nodeId: string): Promise<NodeCheckpoint | null> {
    const node = this.runs.get(executionId)?.get(nodeId);
    if (!node) return null;
    if (!node.spilled) return { messages: node.messages, end: node.end, overCap: node.overCap };
    return { messages: this.spill!.read(executionId, nodeId), end: node.end, overCap: null };
  }

  drop(executionId: string): void {
    const run = this.runs.get(executionId);
    if (run) for (const node of run.values()) this.bytes -= node.bytes;
    this.runs.delete(executionId);
    this.spill?.drop(executionId);
  }

  async executions(): Promise<string[]> {
    return [...this.runs.keys()];
  }

  flush(): Promise<void> {
    return Promise.resolve();
  }

  /** Bytes held in memory (by the caps' measure; spilled output is on disk) and spills that failed. */
  stats(): CheckpointStats {
    return { bytes: this.bytes, errors: this.spillErrors };
  }

  async close(): Promise<void> {}

  /** Runs with checkpoints (for tests and gauges). */
  get runCount(): number {
    return this.runs.size;
  }

  private node(executionId: string, nodeId: string): MutableCheckpoint {
    let run = this.runs.get(executionId);
    if (!run) this.runs.set(executionId, (run = new Map()));
    let node = run.get(nodeId);
    if (!node) run.set(nodeId, (node = { messages: [], bytes: 0, end: null, overCap: null, spilled: false }));
    return node;
  }

  private over(executionId: string, nodeId: string, node: MutableCheckpoint, message: RecordedMessage, reason: string): void {
    this.bytes -= node.bytes;
    const messages = [...node.messages, message];
    node.messages = []; // a partial output is never replayed, so it is not kept either
    node.bytes = 0;
    if (this.spill === null) {
      node.overCap = reason;
      return;
    }
    // The whole output moves to the spill folder and recording goes on there.
    node.spilled = true;
    this.spilling(node, () => this.spill!.move(executionId, nodeId, messages));
  }

  /**
   * A write to the spill folder. One that fails (disk full, folder gone) is counted in
   * `yukta.checkpoint.errors` and leaves the node over its cap: a restart that needs it refuses rather than
   * replaying part of its output; the run itself goes on.
   */
  private spilling(node: MutableCheckpoint, write: () => void): void {
    try {
      write();
    } catch (error) {
      this.spillErrors++;
      node.spilled = false;
      node.overCap = `writing to the spill folder failed: ${error instanceof Error ? error.message : String(error)}`;
    }
  }
}

function definedCaps(options: Partial<CheckpointCaps>): Partial<CheckpointCaps> {
  const out: Partial<CheckpointCaps> = {};
  if (options.maxMessagesPerNode !== undefined) out.maxMessagesPerNode = options.maxMessagesPerNode;
  if (options.maxBytesPerNode !== undefined) out.maxBytesPerNode = options.maxBytesPerNode;
  return out;
}
