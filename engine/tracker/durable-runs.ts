import type { RunDetail } from '../../shared/api/runs.schema';
import { Resumer, type Resumed, type ResumerOptions } from '../control/restart/resumer';
import type { ExecutionLog } from '../store/execution-log';
import { loggedRuns, RECOVERY_ACTOR, runDetailOf } from './run-recovery';

/** Durability of runs (engine option `durability`, DUR-01…03). */
export interface EngineDurabilityOptions {
  /** The execution log, fed from the event bus; it also keeps the control audit and the scheduler's limit changes. */
  log: ExecutionLog;
  /** `yukta.restart.auto-resume` (false): after boot, resume every run the last crash interrupted, one after another. */
  autoResume?: boolean;
  /**
   * SCL-02: settles when this host becomes leader. Recovery (and with it the takeover: the old leader's
   * unfinished runs ABORTED, keys read back, auto-resume) waits for it; rejected (stopped as a standby): nothing is recovered.
   */
  leadership?: Promise<void> | undefined;
}

export interface DurableRunsDeps extends Omit<ResumerOptions, 'resumedBefore'> {
  /** Boot recovery (`recoverRuns`): settles with the runs it marked ABORTED. */
  recovered: Promise<string[]>;
  /** Runs resumed before this process, filled by boot recovery. */
  resumedBefore: ReadonlyMap<string, string>;
  autoResume: boolean;
  onError(error: unknown): void;
}

/**
 * The engine's durable side once it has booted (DUR-01…03): resume of ABORTED runs, `yukta.restart.auto-resume`
 * after boot recovery, and runs read back from the execution log.
 */
export class DurableRuns {
  private readonly resumer: Resumer;

  constructor(private readonly deps: DurableRunsDeps) {
    this.resumer = new Resumer(deps);
    deps.recovered.then(
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
