import type { RunDetail } from '../../shared/api/runs.schema';
import { isTerminal } from '../../shared/status/status';
import type { ArchivedRun, RunArchive } from '../control/restart/run-archive';
import type { PreparedWorkflow } from '../runtime/prepared-workflow';
import { replayGraph } from '../runtime/replay-graph';
import type { IdempotencyCache } from '../scheduler/idempotency-cache';
import { readNodes, type CheckpointStore } from '../store/checkpoint-store';
import type { ExecutionLog } from '../store/execution-log';
import { loggedRuns, recoverLog, runDetailOf, type LoggedRun } from './run-recovery';

export interface BootRecoveryDeps {
  log: ExecutionLog;
  checkpoints: CheckpointStore;
  archive: RunArchive;
  /** A saved version, prepared (archive entries are rebuilt from it on first use). */
  preparedVersion(session: string, workflowId: string, version: string): Promise<PreparedWorkflow>;
  idempotency: IdempotencyCache;
  /** Puts runs read back from the log into the tracker's history (oldest first). */
  restoreHistory(runs: RunDetail[]): void;
  now(): number;
  /** Runs kept in the tracker's history. */
  maxRuns: number;
  idempotencyMaxKeys: number;
  /** Filled with the runs resumed before this process, by the run they continue (the resumer reads it). */
  resumedBefore: Map<string, string>;
}

/**
 * Boot recovery (DUR-01…03): runs that never finished are marked ABORTED; the newest runs go back into the
 * tracker's history, their idempotency keys into the cache (their window starts again), and the newest
 * finished ones into the restart archive (rebuilt on first use); other checkpoints are dropped. Resolves
 * with the runs it aborted.
 */
export async function recoverRuns(deps: BootRecoveryDeps): Promise<string[]> {
  const recovery = await recoverLog(deps.log, deps.now());
  for (const run of recovery.runs) if (run.resumedBy !== null) deps.resumedBefore.set(run.executionId, run.resumedBy);
  deps.restoreHistory(recovery.runs.slice(-deps.maxRuns).map(runDetailOf));
  const known = new Set(recovery.runs.map((r) => r.executionId));
  for (const { executionId, record } of recovery.keys.slice(-deps.idempotencyMaxKeys)) {
    if (known.has(executionId)) deps.idempotency.remember(record.scope, record.key, record.payloadHash, Promise.resolve(executionId));
  }
  await restoreArchive(deps, recovery.runs);
  return recovery.aborted;
}

/** The restart archive after a restart: the newest finished runs, rebuilt on use; other checkpoints go. */
async function restoreArchive(deps: BootRecoveryDeps, runs: readonly LoggedRun[]): Promise<void> {
  const { archive, checkpoints } = deps;
  const finished = runs.filter((r) => isTerminal(r.status)).map((r) => r.executionId);
  archive.restore(finished, (id) => loadArchived(deps, id));
  const kept = new Set(finished.slice(-archive.retainedRuns));
  for (const id of await checkpoints.executions()) if (!kept.has(id)) checkpoints.drop(id);
}

/** Rebuilds an archive entry from the log and the checkpoints (CTL-04 after a restart). */
async function loadArchived(deps: BootRecoveryDeps, executionId: string): Promise<ArchivedRun | null> {
  const run = loggedRuns(await deps.log.runEntries(executionId)).get(executionId);
  if (!run || !isTerminal(run.status)) return null;
  const { session, workflowId, version, payload, scope, inputs } = run.record;
  const full = await deps.preparedVersion(session, workflowId, version);
  const recorded = await readNodes(deps.checkpoints, executionId, inputs);
  const replays = new Map(inputs.map((n) => [n, recorded.get(n)?.messages ?? []] as const));
  const prepared = inputs.length ? replayGraph(full, new Set(scope), replays) : full;
  return { executionId, session, workflowId, prepared, payload, status: run.status, recorded: true };
}
