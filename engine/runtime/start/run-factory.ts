import type { UnnumberedEvent } from '../../../shared/events/events';
import type { SubWorkflowRunner } from '../../plugins/contract';
import type { PluginServices } from '../../plugins/services';
import type { EventBus } from '../../tracker/event-bus';
import type { Clock } from '../clock';
import type { PreparedWorkflow } from '../prepared-workflow';
import type { Random } from '../random';
import { applyDebug } from '../run-debug';
import type { RunControl, RunRecorder } from '../run-hooks';
import { StagePool, type RunStages } from '../run-stages';
import { WorkflowRun } from '../workflow-run';
import type { RunSpec } from './start-types';

/** Where a top-level run is archived for restarts (CTL-04); sub-workflow runs are not. */
export interface RunArchiving {
  begin(run: {
    executionId: string;
    session: string;
    workflowId: string;
    prepared: PreparedWorkflow;
    payload: Record<string, unknown>;
    unrecorded?: ReadonlySet<string> | undefined;
  }): RunRecorder;
}

export interface RunFactoryOptions {
  clock: Clock;
  /** Backoff jitter of every run (seeded in tests). */
  random: Random;
  bus: EventBus;
  channelCapacity: number;
  freezeMessages: boolean;
  /** Counts a message dropped by an edge buffer (`yukta.edge.dropped`). */
  edgeDropped(workflowId: string, nodeId: string): void;
  archive: RunArchiving | null;
  /** Serves the plugins' `ctx.control` (CTL-05, CTL-08). */
  control: RunControl | null;
  /** The plugins' `ctx.services` (SEC-02, SEC-03, EXT-03). */
  services: PluginServices | null;
}

/**
 * The "create run" step: a WorkflowRun for an id and a resolved spec, archived and recording unless it is a
 * sub-workflow's run, with the start's debug valves set before any message moves.
 */
export class RunFactory {
  /** Made once: every run publishes through it. */
  private readonly emit: (event: UnnumberedEvent) => void;
  /** Stages reused across runs of one prepared workflow (the per-run allocation budget, docs/performance.md). */
  private readonly pool: StagePool;
  private readonly recycle: (prepared: PreparedWorkflow, stages: RunStages) => void;

  constructor(private readonly options: RunFactoryOptions) {
    const bus = options.bus;
    this.emit = (event) => void bus.publish(event);
    const pool = (this.pool = new StagePool(options.channelCapacity, options.clock));
    this.recycle = (prepared, stages) => pool.release(prepared, stages);
  }

  create(executionId: string, spec: RunSpec, runWorkflow: SubWorkflowRunner): WorkflowRun {
    const o = this.options;
    // Sub-workflow runs (they collect results) are not archived: only a caller's run is restarted.
    const archive = spec.collectResults ? null : o.archive;
    const { session, workflowId, prepared, payload, unrecorded } = spec;
    const run = new WorkflowRun({
      executionId,
      session,
      prepared,
      payload,
      clock: o.clock,
      random: o.random,
      emit: this.emit,
      deadlineMs: spec.deadlineMs,
      freezeMessages: o.freezeMessages,
      collectResults: spec.collectResults,
      runWorkflow,
      edgeDropped: o.edgeDropped,
      recorder: archive?.begin({ executionId, session, workflowId, prepared, payload, unrecorded }) ?? null,
      control: o.control,
      services: o.services,
      stages: this.pool.acquire(prepared),
      recycle: this.recycle,
    });
    if (spec.debug) applyDebug(run, spec.debug);
    return run;
  }
}
