import { ConflictError, NotFoundError } from '../../engine-errors';
import type { Status } from '../../../shared/status/status';
import type { ExecutionId } from '../../../shared/workflow/ids';
import type { PreparedWorkflow } from '../../runtime/prepared-workflow';
import { replayGraph } from '../../runtime/replay-graph';
import { planRestart } from './restart-plan';
import type { ArchivedRun, RunArchive } from './run-archive';

/** A start of a prepared graph through admission: the one entry restarts use (see docs/development.md). */
export type StartPrepared = (request: {
  session: string;
  workflowId: string;
  prepared: PreparedWorkflow;
  payload: Record<string, unknown>;
}) => Promise<{ executionId: ExecutionId; queued: boolean }>;

export interface RestartStarted {
  newExecutionId: ExecutionId;
  queued: boolean;
}

/** Statuses a node may be retried from (CTL-04). */
const RETRYABLE: ReadonlySet<Status> = new Set<Status>(['FAILURE', 'TIMED_OUT']);

/**
 * Restart, restart from a node and retry a node (CTL-04): each makes a new run of the archived version
 * with the archived start payload, admitted like any start. Refusals are CONFLICT with the reason.
 */
export class Restarter {
  constructor(
    private readonly archive: RunArchive,
    private readonly start: StartPrepared,
    /** A node's status as the tracker knows it, or null. */
    private readonly nodeStatus: (executionId: string, nodeId: string) => Status | null,
  ) {}

  /** A new run of the same version with the same payload. */
  async restart(executionId: string): Promise<RestartStarted> {
    const run = await this.archived(executionId);
    return this.launch(run, run.prepared);
  }

  /** Re-runs the node and its descendants, replaying the recorded outputs of the parents feeding them. */
  async restartFromNode(executionId: string, nodeId: string): Promise<RestartStarted> {
    const run = await this.archived(executionId);
    this.checkNode(run, nodeId);
    if (!run.recorded)
      throw new ConflictError(`run "${executionId}" recorded no node outputs (recording is off), so it can only be restarted whole`, 'command.nodeId');
    const recorded = await this.archive.checkpoints(executionId, run.prepared.nodes.keys());
    const plan = planRestart(run.prepared, nodeId, (id) => recorded.get(id) ?? null);
    if (typeof plan === 'string') throw new ConflictError(plan, 'command.nodeId');
    return this.launch(run, replayGraph(run.prepared, plan.rerun, plan.replays));
  }

  /** Restart from a node that ended FAILURE or TIMED_OUT. */
  async retryNode(executionId: string, nodeId: string): Promise<RestartStarted> {
    const run = await this.archived(executionId);
    this.checkNode(run, nodeId);
    const status = this.nodeStatus(executionId, nodeId) ?? (await this.archive.checkpoint(executionId, nodeId))?.end ?? null;
    if (status === null || !RETRYABLE.has(status)) {
      throw new ConflictError(
        `node "${nodeId}" ${status === null ? 'has no status' : `ended ${status}`}; only a node that ended FAILURE or TIMED_OUT can be retried`,
        'command.nodeId',
      );
    }
    return this.restartFromNode(executionId, nodeId);
  }

  private async archived(executionId: string): Promise<ArchivedRun> {
    const run = await this.archive.load(executionId);
    if (!run)
      throw new ConflictError(
        `run "${executionId}" is not in the archive (it never started, or it is older than the newest ${this.archive.retainedRuns} finished runs kept)`,
        'executionId',
      );
    return run;
  }

  private checkNode(run: ArchivedRun, nodeId: string): void {
    if (!run.prepared.nodes.has(nodeId)) throw new NotFoundError(`run "${run.executionId}" has no node "${nodeId}"`, 'command.nodeId');
  }

  private async launch(run: ArchivedRun, prepared: PreparedWorkflow): Promise<RestartStarted> {
    const { executionId, queued } = await this.start({ session: run.session, workflowId: run.workflowId, prepared, payload: run.payload });
    return { newExecutionId: executionId, queued };
  }
}
