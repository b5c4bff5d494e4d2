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
 * records signal answers here too, as pseudo node `signal:<node>` (CTL-05). Memory now; the durability
 * issue adds file and SQLite stores behind this interface.
 */
export interface CheckpointStore {
  append(executionId: string, nodeId: string, message: RecordedMessage): void;
  /** A writer bound to one node, for the hot path (no lookup per message). */
  writer(executionId: string, nodeId: string): CheckpointWriter;
  markDone(executionId: string, nodeId: string, status: Status): void;
  read(executionId: string, nodeId: string): NodeCheckpoint | null;
  /** Forgets a run's checkpoints. */
  drop(executionId: string): void;
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
