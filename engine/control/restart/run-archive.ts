import type { Status } from '../../../shared/status/status';
import type { PreparedWorkflow } from '../../runtime/prepared-workflow';
import type { NodeRecorder, RunRecorder } from '../../runtime/run-hooks';
import type { CheckpointStore, NodeCheckpoint } from '../../store/checkpoint-store';

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

export type RunInfo = Pick<ArchivedRun, 'executionId' | 'session' | 'workflowId' | 'prepared' | 'payload'>;

/**
 * The archive of recent runs (CTL-04): graph, start payload and, through the checkpoint store, every
 * node's recorded output with its end marker. Live runs are kept; of the finished ones, the newest
 * `retainedRuns`. In memory: a restart after an app restart needs the durable stores (durability issue).
 */
export class RunArchive {
  private readonly runs = new Map<string, ArchivedRun>();
  private readonly finished: string[] = [];

  constructor(private readonly options: RunArchiveOptions) {}

  /** Starts archiving a run; its recorder writes outputs and end markers and says when the run ended. */
  begin(info: RunInfo): RunRecorder {
    const entry: ArchivedRun = { ...info, status: null, recorded: this.options.recordOutputs };
    this.runs.set(info.executionId, entry);
    const { checkpoints } = this.options;
    return {
      node: (nodeId) => (entry.recorded ? nodeRecorder(checkpoints, info.executionId, nodeId) : null),
      ended: (status) => this.ended(entry, status),
    };
  }

  get(executionId: string): ArchivedRun | null {
    return this.runs.get(executionId) ?? null;
  }

  checkpoint(executionId: string, nodeId: string): NodeCheckpoint | null {
    return this.options.checkpoints.read(executionId, nodeId);
  }

  get size(): number {
    return this.runs.size;
  }

  get retainedRuns(): number {
    return this.options.retainedRuns;
  }

  private ended(entry: ArchivedRun, status: Status): void {
    entry.status = status;
    this.finished.push(entry.executionId);
    while (this.finished.length > this.options.retainedRuns) {
      const oldest = this.finished.shift()!;
      this.runs.delete(oldest);
      this.options.checkpoints.drop(oldest);
    }
  }
}

function nodeRecorder(checkpoints: CheckpointStore, executionId: string, nodeId: string): NodeRecorder {
  const writer = checkpoints.writer(executionId, nodeId);
  return {
    record: (port, payload, metadata) => {
      writer.append({ port, payload, metadata });
      return !writer.full;
    },
    end: (status) => writer.markDone(status),
  };
}
