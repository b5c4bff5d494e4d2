import type { Status } from '../../shared/status/status';

/** One recorded output message of a node (DUR-02): its port, payload and metadata, in emission order. */
export interface RecordedMessage {
  readonly port: string;
  readonly payload: unknown;
  readonly metadata: Readonly<Record<string, string>>;
  /** The input message it answers, for pseudo nodes keyed by message (`signal:<node>`, CTL-05). */
  readonly messageId?: string;
}

/** What a store holds for one node of one run. */
export interface NodeCheckpoint {
  readonly messages: readonly RecordedMessage[];
  /** The durable end marker: the node's final status, or null while it runs. */
  readonly end: Status | null;
  /** Why recording stopped (a cap was passed), or null when the output is complete. */
  readonly overCap: string | null;
}

/**
 * Checkpoints per run and node (DUR-02): every output message and an end marker. The control plane
 * records signal answers here too, as pseudo node `signal:<node>` (CTL-05). Memory (with caps and a spill
 * folder), file (`yukta.restart.dir`) and SQLite implement it and pass one contract suite
 * (`checkpoint-store.contract.ts`). Writes are queued and stored by one writer in order (messages before
 * the node's end marker), so a durable end marker means the whole output is durable.
 */
export interface CheckpointStore {
  append(executionId: string, nodeId: string, message: RecordedMessage): void;
  /** A writer that begins one node's recording, for the hot path (no lookup per message). */
  writer(executionId: string, nodeId: string): CheckpointWriter;
  markDone(executionId: string, nodeId: string, status: Status): void;
  /**
   * What is recorded for a node, queued writes included; null when nothing is. Asynchronous because a
   * database on a server (DUR-04) answers over the network; the local stores answer at once.
   */
  read(executionId: string, nodeId: string): Promise<NodeCheckpoint | null>;
  /** Forgets a run's checkpoints. */
  drop(executionId: string): void;
  /** Runs that have checkpoints, queued writes included (boot cleanup drops those no longer retained). */
  executions(): Promise<string[]>;
  /** Resolves once every queued write is durable; rejects with a `StoreWriteError` if that failed (writes stay queued). */
  flush(): Promise<void>;
  /** Bytes recorded and end markers that failed to be written (`yukta.checkpoint.bytes`, `yukta.checkpoint.errors`). */
  stats(): CheckpointStats;
  close(): Promise<void>;
}

export interface CheckpointStats {
  bytes: number;
  errors: number;
}

/** Appends to one node's checkpoint. */
export interface CheckpointWriter {
  /** True once the node passed a cap: nothing more is kept, so callers can skip building messages. */
  readonly full: boolean;
  append(message: RecordedMessage): void;
  markDone(status: Status): void;
}

/** The pseudo node a node's signal answers are recorded under (CTL-05). */
export function signalNodeId(nodeId: string): string {
  return `signal:${nodeId}`;
}

/** The checkpoints of several nodes of one run, read together (a restart or resume plan looks at many). */
export async function readNodes(store: CheckpointStore, executionId: string, nodeIds: Iterable<string>): Promise<Map<string, NodeCheckpoint>> {
  const ids = [...new Set(nodeIds)];
  const read = await Promise.all(ids.map((nodeId) => store.read(executionId, nodeId)));
  const out = new Map<string, NodeCheckpoint>();
  ids.forEach((nodeId, i) => {
    const checkpoint = read[i];
    if (checkpoint) out.set(nodeId, checkpoint);
  });
  return out;
}
