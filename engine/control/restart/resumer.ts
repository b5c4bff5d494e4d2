import type { ExecutionId } from '../../../shared/workflow/ids';
import { ConflictError, NotFoundError, UnavailableError } from '../../engine-errors';
import type { PreparedStart } from '../../runtime/start/start-types';
import type { PreparedWorkflow } from '../../runtime/prepared-workflow';
import { replayGraph } from '../../runtime/replay-graph';
import { readNodes, signalNodeId, type CheckpointStore, type NodeCheckpoint } from '../../store/checkpoint-store';
import type { ExecutionLog } from '../../store/execution-log';
import { loggedRuns, type LoggedRun } from '../../tracker/run-recovery';
import { planResume } from './resume-plan';

export interface ResumerOptions {
  log: ExecutionLog;
  checkpoints: CheckpointStore;
  now(): number;
  /** The workflow's current version, or null when it no longer exists. */
  currentVersion(session: string, workflowId: string): Promise<string | null>;
  prepared(session: string, workflowId: string, version: string): Promise<PreparedWorkflow>;
  /** Admission like any start (`StartPipeline.startPrepared`). */
  startPrepared(start: PreparedStart): Promise<{ executionId: ExecutionId; queued: boolean }>;
  /** Cancels a run whose resume could not be stored. */
  cancel(executionId: string): void;
  /** Runs resumed before this process (boot recovery), by the run they continue. */
  resumedBefore?: ReadonlyMap<string, string>;
}

export interface Resumed {
  executionId: ExecutionId;
  resumedFrom: string;
  queued: boolean;
}

/**
 * Resume of ABORTED runs (DUR-03): a run resumes once, only while its workflow is still at the version it
 * ran, as a new run of that version that skips every node with a replayable end marker (their checkpoints
 * and the run's signal answers are copied to it) and replays the output feeding the nodes that run again.
 * The claim is kept in memory and dropped if the resume fails. RUN_RESUMED is stored before the answer.
 */
export class Resumer {
  private readonly claims = new Set<string>();
  private readonly resumed = new Map<string, string>();

  constructor(private readonly options: ResumerOptions) {}

  async resume(executionId: string, actor: string): Promise<Resumed> {
    if (this.claims.has(executionId)) throw new ConflictError(`run "${executionId}" is being resumed already`, 'executionId');
    this.claims.add(executionId);
    try {
      const run = await this.resumable(executionId);
      const started = await this.start(run);
      await this.record(run, started.executionId, actor);
      return { executionId: started.executionId, resumedFrom: executionId, queued: started.queued };
    } finally {
      this.claims.delete(executionId);
    }
  }

  /** Whether a run was resumed (in this process or before it), and by which run. */
  resumedBy(executionId: string): string | null {
    return this.resumed.get(executionId) ?? this.options.resumedBefore?.get(executionId) ?? null;
  }

  private async resumable(executionId: string): Promise<LoggedRun> {
    const run = loggedRuns(await this.options.log.runEntries(executionId)).get(executionId);
    if (!run)
      throw new NotFoundError(
        `run "${executionId}" is not in the execution log (never started, a sub-workflow run, or older than the runs kept)`,
        'executionId',
      );
    const by = this.resumedBy(executionId) ?? run.resumedBy;
    if (by !== null) throw new ConflictError(`run "${executionId}" was already resumed as "${by}"`, 'executionId');
    if (run.status !== 'ABORTED')
      throw new ConflictError(`run "${executionId}" is ${run.status}, not ABORTED: only a run interrupted by a crash can be resumed`, 'executionId');
    const { session, workflowId, version } = run.record;
    const current = await this.options.currentVersion(session, workflowId);
    if (current !== version) {
      const now = current === null ? 'was deleted' : `is now at version ${current.slice(0, 12)}`;
      throw new ConflictError(
        `workflow "${workflowId}" ${now}, but run "${executionId}" ran version ${version.slice(0, 12)}: a resume needs the unchanged definition; start it again instead`,
        'executionId',
      );
    }
    return run;
  }

  private async start(run: LoggedRun): Promise<{ executionId: ExecutionId; queued: boolean }> {
    const { session, workflowId, version, payload, scope, inputs } = run.record;
    const full = await this.options.prepared(session, workflowId, version);
    const { checkpoints } = this.options;
    const recorded = await readNodes(checkpoints, run.executionId, [...scope, ...inputs, ...scope.map(signalNodeId)]);
    const plan = planResume(full, run.record, (nodeId) => recorded.get(nodeId) ?? null);
    if (typeof plan === 'string') throw new ConflictError(plan, 'executionId');
    const copy = (to: string): void => {
      for (const nodeId of plan.copied) copyCheckpoint(checkpoints, recorded.get(nodeId), to, nodeId, true);
      for (const nodeId of scope) copyCheckpoint(checkpoints, recorded.get(signalNodeId(nodeId)), to, signalNodeId(nodeId), false);
    };
    const resume = { from: run.executionId, scope, inputs, unrecorded: new Set(plan.replays.keys()), beforeBuild: copy };
    return this.options.startPrepared({ session, workflowId, prepared: replayGraph(full, plan.rerun, plan.replays), payload, resume });
  }

  /** RUN_RESUMED, stored before the caller is answered; if it cannot be stored, the new run is cancelled. */
  private async record(run: LoggedRun, newExecutionId: string, actor: string): Promise<void> {
    const { log } = this.options;
    log.append({ runId: run.executionId, type: 'RUN_RESUMED', status: 'RESUMED', actor, at: this.options.now(), data: { newExecutionId } });
    this.resumed.set(run.executionId, newExecutionId);
    try {
      await log.flush();
    } catch (error) {
      this.options.cancel(newExecutionId);
      throw new UnavailableError(
        `the resume could not be saved, so its run "${newExecutionId}" was cancelled: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
  }
}

/** Copies one node's checkpoint, read from the run resumed (messages, and the end marker when asked), to the new run. */
function copyCheckpoint(store: CheckpointStore, checkpoint: NodeCheckpoint | undefined, to: string, nodeId: string, withEnd: boolean): void {
  if (checkpoint === undefined) return;
  const writer = store.writer(to, nodeId);
  for (const message of checkpoint.messages) writer.append(message);
  if (withEnd && checkpoint.end !== null) writer.markDone(checkpoint.end);
}
