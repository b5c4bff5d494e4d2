import type { Status } from '../../../shared/status/status';
import type { PreparedWorkflow } from '../../runtime/prepared-workflow';
import type { NodeRecorder, RunRecorder } from '../../runtime/run-hooks';
import { readNodes, type CheckpointStore, type CheckpointWriter, type NodeCheckpoint } from '../../store/checkpoint-store';

/** What a restart needs of a run (CTL-04): its graph, start payload and final status. */
export interface ArchivedRun {
  readonly executionId: string;
  readonly session: string;
  readonly workflowId: string;
  /** The prepared version the run used (a restart runs the same version, not the current one). */
  readonly prepared: PreparedWorkflow;
  readonly payload: Record<string, unknown>;
  /** Null while the run is live. */
  status: Status | null;
  /** False when output recording was off: restart works, restart-from-node refuses. */
  readonly recorded: boolean;
}

export interface RunArchiveOptions {
  checkpoints: CheckpointStore;
  /** Finished runs kept restartable (`yukta.restart.retained-executions`, 100); live runs are always kept. */
  retainedRuns: number;
  /** Record every node's output (on by default; off costs nothing per message). */
  recordOutputs: boolean;
}

export type RunInfo = Pick<ArchivedRun, 'executionId' | 'session' | 'workflowId' | 'prepared' | 'payload'> & {
  /** Nodes not recorded (a resume copies their checkpoints from the run it continues, DUR-03). */
  unrecorded?: ReadonlySet<string> | undefined;
};

/** Rebuilds the archive entry of a finished run from durable stores (after an app restart, DUR-03). */
export type ArchiveLoader = (executionId: string) => Promise<ArchivedRun | null>;

/**
 * The archive of recent runs (CTL-04): graph, start payload and, through the checkpoint store, every
 * node's recorded output with its end marker. Live runs are kept; of the finished ones, the newest
 * `retainedRuns`. In memory: a restart after an app restart needs the durable stores (durability issue).
 */
export class RunArchive {
  private readonly runs = new Map<string, ArchivedRun>();
  private readonly finished: string[] = [];
  /** Finished runs of an earlier process whose entries are rebuilt on first use. */
  private readonly restorable = new Set<string>();
  private loader: ArchiveLoader | null = null;

  constructor(private readonly options: RunArchiveOptions) {}

  /** Starts archiving a run; its recorder writes outputs and end markers and says when the run ended. */
  begin(info: RunInfo): RunRecorder {
    const entry: ArchivedRun = {
      executionId: info.executionId,
      session: info.session,
      workflowId: info.workflowId,
      prepared: info.prepared,
      payload: info.payload,
      status: null,
      recorded: this.options.recordOutputs,
    };
    this.runs.set(info.executionId, entry);
    return new ArchiveRecorder(this, entry, info.unrecorded ?? null);
  }

  /** A node recorder of an archived run, or null for a node it does not record. */
  nodeRecorder(entry: ArchivedRun, nodeId: string, unrecorded: ReadonlySet<string> | null): NodeRecorder | null {
    if (!entry.recorded || unrecorded?.has(nodeId)) return null;
    return new CheckpointRecorder(this.options.checkpoints.writer(entry.executionId, nodeId));
  }

  get(executionId: string): ArchivedRun | null {
    return this.runs.get(executionId) ?? null;
  }

  /** The entry of a run, rebuilding one of an earlier process from the durable stores on first use. */
  async load(executionId: string): Promise<ArchivedRun | null> {
    const entry = this.runs.get(executionId);
    if (entry || !this.loader || !this.restorable.has(executionId)) return entry ?? null;
    const loaded = await this.loader(executionId);
    if (loaded && this.restorable.has(executionId)) this.runs.set(executionId, loaded);
    return loaded;
  }

  /**
   * After a restart (DUR-03): the finished runs of the earlier process still retained, oldest first. Their
   * entries are rebuilt by `loader` on first use, and they age out like any finished run.
   */
  restore(finishedRuns: readonly string[], loader: ArchiveLoader): void {
    this.loader = loader;
    for (const id of finishedRuns) {
      if (this.runs.has(id) || this.restorable.has(id)) continue;
      this.restorable.add(id);
      this.finished.push(id);
    }
    this.evict();
  }

  checkpoint(executionId: string, nodeId: string): Promise<NodeCheckpoint | null> {
    return this.options.checkpoints.read(executionId, nodeId);
  }

  /** The checkpoints of several nodes of a run (absent: nothing recorded). */
  checkpoints(executionId: string, nodeIds: Iterable<string>): Promise<Map<string, NodeCheckpoint>> {
    return readNodes(this.options.checkpoints, executionId, nodeIds);
  }

  get size(): number {
    return this.runs.size;
  }

  get retainedRuns(): number {
    return this.options.retainedRuns;
  }

  /** An archived run ended: it ages out once `retainedRuns` newer ones have ended. */
  ended(entry: ArchivedRun, status: Status): void {
    entry.status = status;
    this.finished.push(entry.executionId);
    this.evict();
  }

  private evict(): void {
    while (this.finished.length > this.options.retainedRuns) {
      const oldest = this.finished.shift()!;
      this.runs.delete(oldest);
      this.restorable.delete(oldest);
      this.options.checkpoints.drop(oldest);
    }
  }
}

/** The recorder of one archived run (one object per run: no closures on the start path). */
class ArchiveRecorder implements RunRecorder {
  constructor(
    private readonly archive: RunArchive,
    private readonly entry: ArchivedRun,
    private readonly unrecorded: ReadonlySet<string> | null,
  ) {}

  node(nodeId: string): NodeRecorder | null {
    return this.archive.nodeRecorder(this.entry, nodeId, this.unrecorded);
  }

  ended(status: Status): void {
    this.archive.ended(this.entry, status);
  }
}

/** Records one node's outputs and end marker through its checkpoint writer (DUR-02). */
class CheckpointRecorder implements NodeRecorder {
  constructor(private readonly writer: CheckpointWriter) {}

  record(port: string, payload: unknown, metadata: Readonly<Record<string, string>>): boolean {
    this.writer.append({ port, payload, metadata });
    return !this.writer.full;
  }

  end(status: Status): void {
    this.writer.markDone(status);
  }
}
