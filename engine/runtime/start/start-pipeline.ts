import { newExecutionId } from '../execution-id';
import { BadInputError, UnavailableError } from '../../engine-errors';
import type { PluginServices } from '../../plugins/services';
import type { AdmissionScheduler } from '../../scheduler/admission-scheduler';
import type { Slot } from '../../scheduler/admission-types';
import type { IdempotencyCache } from '../../scheduler/idempotency-cache';
import { UnwritableEntryError } from '../../store/unwritable-entry-error';
import type { Clock } from '../clock';
import { toErrorInfo } from '../errors';
import type { RunLauncher } from '../run-launcher';
import type { WorkflowRun } from '../workflow-run';
import type { DefinitionResolver } from './definition-resolver';
import { checkIdempotency, rememberStart } from './idempotent-start';
import { resolvePreparedStart, resolveStart } from './resolve-start';
import type { RunFactory } from './run-factory';
import { startRecordOf, type StartJournal } from './start-record';
import { runDepth, type Launched, type PreparedStart, type StartPlan, type StartRequest } from './start-types';
import type { SubWorkflows } from './sub-workflows';

export interface StartPipelineOptions {
  clock: Clock;
  /** Settles once the scheduler's recorded limits are re-applied (ADM-03) and boot recovery is done (DUR-01). */
  ready: Promise<void>;
  resolver: DefinitionResolver;
  idempotency: IdempotencyCache;
  /** Admission (ADM-01): every top-level start takes its slot here. */
  scheduler: AdmissionScheduler;
  factory: RunFactory;
  children: SubWorkflows;
  registry: RunLauncher;
  /** Records RUN_STARTED (DUR-01); null without a durable log. */
  journal: StartJournal | null;
  /**
   * The durability barrier of a caller's start (DUR-01): resolves once its RUN_STARTED (and idempotency key)
   * is stored; a rejection refuses the start (the run is cancelled, nothing was acknowledged). Null: none.
   */
  acknowledge: (() => Promise<void>) | null;
  /** `ctx.services`; its limits bound the start payload (SEC-03). */
  services: PluginServices | null;
}

/**
 * The run start as a pipeline of small steps passing one value along (ARCHITECTURE.md "Engine shape"):
 * resolve the definition and version → idempotency → admission → create the run → record the start →
 * acknowledge. A caller's start takes every step; restart, restart-from-node, retry and resume enter with a
 * prepared graph and skip idempotency and the acknowledgement (a resume stores RUN_RESUMED itself);
 * sub-workflow runs enter after admission (`SubWorkflows`). Admission, the id, the record and the
 * announcement happen in one turn of the event loop, so two starts racing for the last slot never both get it.
 */
export class StartPipeline {
  constructor(private readonly options: StartPipelineOptions) {}

  /**
   * Starts a run of a stored workflow; returns once it is announced (RUNNING, or QUEUED waiting for a slot)
   * and acknowledged, not when it ends. A start refused by the scheduler throws (RATE_LIMITED, QUEUE_FULL,
   * UNAVAILABLE) and gets no id. With an idempotency key, a repeat (even a concurrent one) gets the first
   * run's id; the same key with a different payload is a CONFLICT.
   */
  async start(request: StartRequest): Promise<{ executionId: string }> {
    const { options } = this;
    // A standby refuses before it waits for recovery, which waits for it to lead (SCL-02).
    options.scheduler.refuseUnlessLeader();
    await options.ready;
    const checked = checkIdempotency(options.idempotency, await resolveStart(options.resolver, request, options.services), request.idempotencyKey);
    if ('repeat' in checked) return { executionId: await checked.repeat };
    const started = this.acknowledged(checked.plan);
    if (checked.record) rememberStart(options.idempotency, checked.record, started);
    return { executionId: await started };
  }

  /**
   * Restart, restart-from-node, retry (CTL-04) and resume (DUR-03): an already prepared graph (the archived
   * version, a replay graph) with the archived payload, admitted like any start.
   */
  async startPrepared(start: PreparedStart): Promise<Launched> {
    this.options.scheduler.refuseUnlessLeader();
    await this.options.ready;
    return this.launch(await resolvePreparedStart(this.options.resolver, start));
  }

  /**
   * Admission, then the run (now, or when its slot comes), its RUN_STARTED and its announcement; synchronous.
   * A start that waits is announced QUEUED and recorded at once; its run is made when the slot is granted.
   */
  private launch(plan: StartPlan): Launched {
    const { scheduler, registry } = this.options;
    const ticket = scheduler.admit(
      {
        session: plan.session,
        workflowId: plan.workflowId,
        ...plan.admission,
        granted: (slot) => this.startGranted(plan, slot),
        dropped: (reason, executionId) => registry.queued.end(executionId, reason),
      },
      newExecutionId,
    );
    const { executionId } = ticket;
    if (ticket.state === 'queued') {
      const unwritten = this.record(executionId, plan);
      registry.queued.announce(ticket, plan.prepared);
      return { executionId, queued: true, unwritten };
    }
    let run: WorkflowRun;
    try {
      run = this.build(executionId, plan);
    } catch (error) {
      ticket.release();
      throw error;
    }
    const unwritten = this.record(executionId, plan);
    run.announce();
    registry.track(run, ticket);
    return { executionId, queued: false, unwritten };
  }

  /** A queued start's slot came: its run is made and started (a failure ends the start FAILURE and frees the slot). */
  private startGranted(plan: StartPlan, slot: Slot): void {
    const { queued } = this.options.registry;
    let run: WorkflowRun;
    try {
      run = this.build(slot.executionId, plan);
      queued.started(slot.executionId, run.done);
    } catch (error) {
      queued.end(slot.executionId, { status: 'FAILURE', error: toErrorInfo(error) });
      throw error;
    }
    this.options.registry.track(run, slot);
  }

  private build(executionId: string, plan: StartPlan): WorkflowRun {
    plan.beforeBuild?.(executionId);
    const parent = { executionId, session: plan.session, depth: runDepth(plan.payload), timeBudgetMs: plan.timeBudgetMs };
    return this.options.factory.create(executionId, plan, this.options.children.runnerFor(parent));
  }

  /**
   * The "record the start" step: the journal gets the start record itself (no call back into the pipeline)
   * and says whether it could never be written (the acknowledgement then refuses the start).
   */
  private record(executionId: string, plan: StartPlan): UnwritableEntryError | null {
    return this.options.journal?.started(executionId, startRecordOf(plan), this.options.clock.now()) ?? null;
  }

  /**
   * Waits until a start is durable (DUR-01) before it is acknowledged. If it cannot be stored (disk full),
   * the run is cancelled and the start refused with UNAVAILABLE; a start record no store can write is the
   * caller's input (BAD_INPUT on `payload`). Nothing unsaved is ever acknowledged.
   */
  private async acknowledged(plan: StartPlan): Promise<string> {
    const { executionId, unwritten } = this.launch(plan);
    const acknowledge = this.options.acknowledge;
    if (acknowledge === null) return executionId;
    try {
      if (unwritten !== null) throw unwritten;
      await acknowledge();
    } catch (error) {
      this.options.registry.cancel(executionId);
      const reason = error instanceof Error ? error.message : String(error);
      if (error instanceof UnwritableEntryError) throw new BadInputError(`the start was refused and its run cancelled: ${reason}`, 'BAD_INPUT', 'payload');
      throw new UnavailableError(`the start could not be saved, so it was refused and its run cancelled: ${reason}`, { cause: error });
    }
    return executionId;
  }
}
