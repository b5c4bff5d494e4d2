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

/**
 * One node's recording, and its writer. The first message is held in fields of its own (most nodes record
 * one); later ones keep only their payloads, with their ports, metadata and ids in arrays made only once one
 * differs from the first's. A finished run of n nodes keeps n small objects, and 10,000 recorded messages of
 * a node one array of payloads — not an object per message.
 */
class NodeRecord implements CheckpointWriter {
  private port = '';
  private payload: unknown = undefined;
  private metadata: Readonly<Record<string, string>> = NO_METADATA;
  private messageId: string | undefined = undefined;
  /** Payloads of the messages after the first, and what differs from the first, index by index. */
  private morePayloads: unknown[] | null = null;
  private morePorts: string[] | null = null;
  private moreMetadata: Array<Readonly<Record<string, string>>> | null = null;
  private moreIds: Array<string | undefined> | null = null;
  count = 0;
  bytes = 0;
  end: Status | null = null;
  overCap: string | null = null;
  /** The node's output moved to the spill folder (it passed a cap and a spill folder is set). */
  spilled = false;

  constructor(
    private readonly store: MemoryCheckpointStore,
    readonly executionId: string,
    readonly nodeId: string,
  ) {}

  get full(): boolean {
    return this.overCap !== null;
  }

  append(message: RecordedMessage): void {
    this.store.appendTo(this, message);
  }

  markDone(status: Status): void {
    this.end = status;
  }

  keep(message: RecordedMessage): void {
    if (this.count++ === 0) {
      this.port = message.port;
      this.payload = message.payload;
      this.metadata = message.metadata;
      this.messageId = message.messageId;
      return;
    }
    const payloads = (this.morePayloads ??= []);
    const at = payloads.length;
    payloads.push(message.payload);
    if (this.morePorts !== null || message.port !== this.port) (this.morePorts ??= new Array<string>(at).fill(this.port)).push(message.port);
    if (this.moreMetadata !== null || message.metadata !== this.metadata) (this.moreMetadata ??= new Array<Readonly<Record<string, string>>>(at).fill(this.metadata)).push(message.metadata);
    if (this.moreIds !== null || message.messageId !== this.messageId) (this.moreIds ??= new Array<string | undefined>(at).fill(this.messageId)).push(message.messageId);
  }

  messages(): RecordedMessage[] {
    if (this.count === 0) return [];
    const out = [recorded(this.port, this.payload, this.metadata, this.messageId)];
    const more = this.morePayloads ?? [];
    for (let i = 0; i < more.length; i++) {
      out.push(recorded(this.morePorts?.[i] ?? this.port, more[i], this.moreMetadata?.[i] ?? this.metadata, this.moreIds === null ? this.messageId : this.moreIds[i]));
    }
    return out;
  }

  forget(): void {
    this.count = 0;
    this.payload = undefined;
    this.metadata = NO_METADATA;
    this.morePayloads = this.morePorts = this.moreMetadata = this.moreIds = null;
    this.bytes = 0;
  }
}

const NO_METADATA: Readonly<Record<string, string>> = Object.freeze({});

function recorded(port: string, payload: unknown, metadata: Readonly<Record<string, string>>, messageId: string | undefined): RecordedMessage {
  return messageId === undefined ? { port, payload, metadata } : { port, payload, metadata, messageId };
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
  private readonly runs = new Map<string, Map<string, NodeRecord>>();
  private readonly caps: CheckpointCaps;
  private readonly spill: SpillFolder | null;
  private bytes = 0;
  /** The run the last writer was made for: a run's nodes ask one after another. */
  private lastRunId: string | null = null;
  private lastRunNodes: Map<string, NodeRecord> | null = null;

  constructor(options: MemoryCheckpointOptions = DEFAULT_CHECKPOINT_CAPS) {
    this.caps = { ...DEFAULT_CHECKPOINT_CAPS, ...definedCaps(options) };
    this.spill = options.spillDir ? new SpillFolder(options.spillDir) : null;
  }

  append(executionId: string, nodeId: string, message: RecordedMessage): void {
    this.appendTo(this.node(executionId, nodeId), message);
  }

  writer(executionId: string, nodeId: string): CheckpointWriter {
    return this.node(executionId, nodeId);
  }

  /** @internal A node's append (its writer's path: no lookup per message). */
  appendTo(node: NodeRecord, message: RecordedMessage): void {
    if (node.overCap !== null) return;
    if (node.spilled) return this.spill!.append(node.executionId, node.nodeId, message);
    const size = payloadBytes(message.payload);
    const bytes = node.bytes + size;
    if (node.count >= this.caps.maxMessagesPerNode) return this.over(node, message, `more than ${this.caps.maxMessagesPerNode} messages`);
    if (bytes > this.caps.maxBytesPerNode) return this.over(node, message, `more than ${this.caps.maxBytesPerNode} bytes`);
    node.bytes = bytes;
    this.bytes += size;
    node.keep(message);
  }

  markDone(executionId: string, nodeId: string, status: Status): void {
    this.node(executionId, nodeId).end = status;
  }

  read(executionId: string, nodeId: string): NodeCheckpoint | null {
    const node = this.runs.get(executionId)?.get(nodeId);
    if (!node) return null;
    if (!node.spilled) return { messages: node.messages(), end: node.end, overCap: node.overCap };
    return { messages: this.spill!.read(executionId, nodeId), end: node.end, overCap: null };
  }

  drop(executionId: string): void {
    const run = this.runs.get(executionId);
    if (run) for (const node of run.values()) this.bytes -= node.bytes;
    this.runs.delete(executionId);
    if (this.lastRunId === executionId) this.lastRunNodes = this.lastRunId = null;
    this.spill?.drop(executionId);
  }

  executions(): string[] {
    return [...this.runs.keys()];
  }

  flush(): Promise<void> {
    return Promise.resolve();
  }

  stats(): CheckpointStats {
    return { bytes: this.bytes, errors: 0 };
  }

  async close(): Promise<void> {}

  /** Runs with checkpoints (for tests and gauges). */
  get runCount(): number {
    return this.runs.size;
  }

  private node(executionId: string, nodeId: string): NodeRecord {
    let run = this.lastRunId === executionId ? this.lastRunNodes : this.runs.get(executionId);
    if (!run) this.runs.set(executionId, (run = new Map()));
    this.lastRunId = executionId;
    this.lastRunNodes = run;
    let node = run.get(nodeId);
    if (!node) run.set(nodeId, (node = new NodeRecord(this, executionId, nodeId)));
    return node;
  }

  private over(node: NodeRecord, message: RecordedMessage, reason: string): void {
    this.bytes -= node.bytes;
    if (this.spill !== null) {
      // The whole output moves to the spill folder and recording goes on there.
      this.spill.move(node.executionId, node.nodeId, [...node.messages(), message]);
      node.spilled = true;
    } else node.overCap = reason;
    node.forget(); // a partial output is never replayed, so it is not kept either
  }
}

function definedCaps(options: Partial<CheckpointCaps>): Partial<CheckpointCaps> {
  const out: Partial<CheckpointCaps> = {};
  if (options.maxMessagesPerNode !== undefined) out.maxMessagesPerNode = options.maxMessagesPerNode;
  if (options.maxBytesPerNode !== undefined) out.maxBytesPerNode = options.maxBytesPerNode;
  return out;
}
