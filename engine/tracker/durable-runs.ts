import type { RunDetail } from '../../shared/api/runs.schema';
import { isTerminal } from '../../shared/status/status';
import type { ArchivedRun, RunArchive } from '../control/restart/run-archive';
import { Resumer, type Resumed } from '../control/restart/resumer';
import type { Clock } from '../runtime/clock';
import type { RunLauncher } from '../runtime/run-launcher';
import type { DefinitionResolver } from '../runtime/start/definition-resolver';
import type { StartPipeline } from '../runtime/start/start-pipeline';
import type { IdempotencyCache } from '../scheduler/idempotency-cache';
import { replayGraph } from '../runtime/replay-graph';
import type { CheckpointStore } from '../store/checkpoint-store';
import type { DefinitionStore } from '../store/definition-store';
import type { ExecutionLog } from '../store/execution-log';
import { ExecutionJournal } from './execution-journal';
import { loggedRuns, recoverLog, RECOVERY_ACTOR, runDetailOf, type LoggedRun } from './run-recovery';

/** Durability of runs (engine option `durability`, DUR-01…03). */
export interface EngineDurabilityOptions {
  /** The execution log, fed from the event bus; it also keeps the control audit and the scheduler's limit changes. */
  log: ExecutionLog;
  /** `yukta.restart.auto-resume` (false): after boot, resume every run the last crash interrupted, one after another. */
  autoResume?: boolean;
}

export interface DurableRunsDeps {
  log: ExecutionLog;
  checkpoints: CheckpointStore;
  archive: RunArchive;
  /** The start pipeline and its parts, read lazily (they are built after this). */
  starts(): { resolver: DefinitionResolver; pipeline: StartPipeline; registry: RunLauncher; idempotency: IdempotencyCache };
  definitions: DefinitionStore;
  clock: Clock;
  /** Puts runs read back from the log into the tracker's history (oldest first). */
  restoreHistory(runs: RunDetail[]): void;
  /** Runs kept in the tracker's history. */
  maxRuns: number;
  idempotencyMaxKeys: number;
  autoResume: boolean;
  onError(error: unknown): void;
}

/**
 * The engine's durable side (DUR-01…03): the journal that feeds the execution log from the event bus, boot
 * recovery (unfinished runs → ABORTED, history, idempotency keys, the restart archive), resume, and
 * `yukta.restart.auto-resume`. Starts wait for `ready` (recovery done).
 */
export class DurableRuns {
  readonly journal: ExecutionJournal;
  readonly resumer: Resumer;
  readonly ready: Promise<void>;
  private readonly resumedBefore = new Map<string, string>();

  constructor(private readonly deps: DurableRunsDeps) {
    this.journal = new ExecutionJournal(deps.log);
    this.resumer = new Resumer({
      log: deps.log,
      checkpoints: deps.checkpoints,
      now: () => deps.clock.now(),
      currentVersion: async (session, workflowId) => (await deps.definitions.versions(session, workflowId))[0]?.version ?? null,
      prepared: (session, workflowId, version) => deps.starts().resolver.preparedVersion(session, workflowId, version),
      startPrepared: (start) => deps.starts().pipeline.startPrepared(start),
      cancel: (id) => void deps.starts().registry.cancel(id),
      resumedBefore: this.resumedBefore,
    });
    const recovered = this.recover();
    this.ready = recovered.then(() => undefined);
    recovered.then(
      (aborted) => (deps.autoResume ? this.autoResume(aborted) : undefined),
      (error: unknown) => deps.onError(error),
    );
  }

  resume(executionId: string, actor: string): Promise<Resumed> {
    return this.resumer.resume(executionId, actor);
  }

  /** A run of the log (e.g. older than the tracker keeps) as `runs.get` shows it, or null. */
  async findRun(executionId: string): Promise<RunDetail | null> {
    const run = loggedRuns(await this.deps.log.runEntries(executionId)).get(executionId);
    return run ? runDetailOf(run) : null;
  }

  /** Boot recovery; resolves with the runs it marked ABORTED. */
  private async recover(): Promise<string[]> {
    const { deps } = this;
    const recovery = await recoverLog(deps.log, deps.clock.now());
    for (const run of recovery.runs) if (run.resumedBy !== null) this.resumedBefore.set(run.executionId, run.resumedBy);
    deps.restoreHistory(recovery.runs.slice(-deps.maxRuns).map(runDetailOf));
    const known = new Set(recovery.runs.map((r) => r.executionId));
    for (const { executionId, record } of recovery.keys.slice(-deps.idempotencyMaxKeys)) {
      if (known.has(executionId)) deps.starts().idempotency.remember(record.scope, record.key, record.payloadHash, Promise.resolve(executionId));
    }
    this.restoreArchive(recovery.runs);
    return recovery.aborted;
  }

  /** The restart archive after a restart: the newest finished runs, rebuilt on use; other checkpoints go. */
  private restoreArchive(runs: readonly LoggedRun[]): void {
    const { archive, checkpoints } = this.deps;
    const finished = runs.filter((r) => isTerminal(r.status)).map((r) => r.executionId);
    archive.restore(finished, (id) => this.loadArchived(id));
    const kept = new Set(finished.slice(-archive.retainedRuns));
    for (const id of checkpoints.executions()) if (!kept.has(id)) checkpoints.drop(id);
  }

  /** Rebuilds an archive entry from the log and the checkpoints (CTL-04 after a restart). */
  private async loadArchived(executionId: string): Promise<ArchivedRun | null> {
    const run = loggedRuns(await this.deps.log.runEntries(executionId)).get(executionId);
    if (!run || !isTerminal(run.status)) return null;
    const { session, workflowId, version, payload, scope, inputs } = run.record;
    const full = await this.deps.starts().resolver.preparedVersion(session, workflowId, version);
    const replays = new Map(inputs.map((n) => [n, this.deps.checkpoints.read(executionId, n)?.messages ?? []] as const));
    const prepared = inputs.length ? replayGraph(full, new Set(scope), replays) : full;
    return { executionId, session, workflowId, prepared, payload, status: run.status, recorded: true };
  }

  /** `yukta.restart.auto-resume`: each run the crash interrupted, one after another. */
  private async autoResume(aborted: readonly string[]): Promise<void> {
    for (const id of aborted) {
      try {
        await this.resumer.resume(id, RECOVERY_ACTOR);
      } catch (error) {
        this.deps.onError(error);
      }
    }
  }
}
