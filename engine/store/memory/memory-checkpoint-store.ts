import type { Status } from '../../../shared/status/status';
import type { CheckpointStats, CheckpointStore, CheckpointWriter, NodeCheckpoint, RecordedMessage } from '../checkpoint-store';
import { NodeOrders } from './node-order';
import { RunRecordings } from './run-recordings';
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
  private readonly runs = new Map<string, RunRecordings>();
  /** Node orders shared by the runs that write the same nodes in the same order (no index per run). */
  private readonly orders = new NodeOrders();
  private readonly caps: CheckpointCaps;
  private readonly spill: SpillFolder | null;
  private bytes = 0;
  /** The run the last writer was made for: a run's nodes ask one after another. */
  private lastRunId: string | null = null;
  private lastRun: RunRecordings | null = null;
  private spillErrors = 0;

  constructor(options: MemoryCheckpointOptions = DEFAULT_CHECKPOINT_CAPS) {
    this.caps = { ...DEFAULT_CHECKPOINT_CAPS, ...definedCaps(options) };
    this.spill = options.spillDir ? new SpillFolder(options.spillDir) : null;
  }

  append(executionId: string, nodeId: string, message: RecordedMessage): void {
    const run = this.run(executionId);
    this.appendTo(run, run.nodeIndex(nodeId, true), message);
  }

  writer(executionId: string, nodeId: string): CheckpointWriter {
    const run = this.run(executionId);
    return new MemoryNodeWriter(this, run, run.nodeIndex(nodeId, true));
  }

  /** @internal A node's append (its writer's path: no lookup per message). */
  appendTo(run: RunRecordings, node: number, message: RecordedMessage): void {
    if (run.overCap(node) !== null) return;
    if (run.spilled(node)) return this.spilling(run, node, () => this.spill!.append(run.executionId, run.nodeId(node), message));
    const size = payloadBytes(message.payload);
    if (run.count(node) >= this.caps.maxMessagesPerNode) return this.over(run, node, message, `more than ${this.caps.maxMessagesPerNode} messages`);
    if (run.bytes(node) + size > this.caps.maxBytesPerNode) return this.over(run, node, message, `more than ${this.caps.maxBytesPerNode} bytes`);
    this.bytes += size;
    run.keep(node, message, size);
  }

  markDone(executionId: string, nodeId: string, status: Status): void {
    const run = this.run(executionId);
    run.setEnd(run.nodeIndex(nodeId, true), status);
  }

  async read(executionId: string, nodeId: string): Promise<NodeCheckpoint | null> {
    const run = this.runs.get(executionId);
    const node = run ? run.nodeIndex(nodeId, false) : -1;
    if (node < 0) return null;
    if (!run!.spilled(node)) return { messages: run!.messages(node), end: run!.end(node), overCap: run!.overCap(node) };
    return { messages: this.spill!.read(executionId, nodeId), end: run!.end(node), overCap: null };
  }

  drop(executionId: string): void {
    const run = this.runs.get(executionId);
    if (run) this.bytes -= run.totalBytes();
    this.runs.delete(executionId);
    if (this.lastRunId === executionId) this.lastRun = this.lastRunId = null;
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

  private run(executionId: string): RunRecordings {
    if (this.lastRunId === executionId) return this.lastRun!;
    let run = this.runs.get(executionId);
    if (!run) this.runs.set(executionId, (run = new RunRecordings(executionId, this.orders)));
    this.lastRunId = executionId;
    this.lastRun = run;
    return run;
  }

  private over(run: RunRecordings, node: number, message: RecordedMessage, reason: string): void {
    this.bytes -= run.bytes(node);
    if (this.spill === null) return run.forget(node, { overCap: reason });
    // The whole output moves to the spill folder and recording goes on there.
    const messages = [...run.messages(node), message];
    run.forget(node, 'spilled');
    this.spilling(run, node, () => this.spill!.move(run.executionId, run.nodeId(node), messages));
  }

  /**
   * A write to the spill folder. One that fails (disk full, folder gone) is counted in
   * `yukta.checkpoint.errors` and leaves the node over its cap: a restart that needs it refuses rather than
   * replaying part of its output; the run itself goes on.
   */
  private spilling(run: RunRecordings, node: number, write: () => void): void {
    try {
      write();
    } catch (error) {
      this.spillErrors++;
      run.forget(node, { overCap: `writing to the spill folder failed: ${error instanceof Error ? error.message : String(error)}` });
    }
  }
}

/** One node's writer: a small object per recorded node that dies with its run (the recordings are the run's). */
class MemoryNodeWriter implements CheckpointWriter {
  constructor(
    private readonly store: MemoryCheckpointStore,
    private readonly run: RunRecordings,
    private readonly node: number,
  ) {}

  get full(): boolean {
    return this.run.overCap(this.node) !== null;
  }

  append(message: RecordedMessage): void {
    this.store.appendTo(this.run, this.node, message);
  }

  markDone(status: Status): void {
    this.run.setEnd(this.node, status);
  }
}

function definedCaps(options: Partial<CheckpointCaps>): Partial<CheckpointCaps> {
  const out: Partial<CheckpointCaps> = {};
  if (options.maxMessagesPerNode !== undefined) out.maxMessagesPerNode = options.maxMessagesPerNode;
  if (options.maxBytesPerNode !== undefined) out.maxBytesPerNode = options.maxBytesPerNode;
  return out;
}
