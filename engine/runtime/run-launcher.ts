import type { Status } from '../../shared/status/status';
import type { AdmissionScheduler } from '../scheduler/admission-scheduler';
import type { Slot, Ticket } from '../scheduler/admission-types';
import { QueuedRuns } from '../scheduler/queued-runs';
import type { EventBus } from '../tracker/event-bus';
import type { Clock } from './clock';
import type { WorkflowRun } from './workflow-run';

export type { StartRequest, PreparedStart, ResumeStart } from './start/start-types';
export type { RunDebugSettings } from './run-debug';

export interface RunLauncherOptions {
  clock: Clock;
  bus: EventBus;
  /** Withdraws queued starts and closes admission at shutdown (ADM-01). */
  scheduler: AdmissionScheduler;
}

/**
 * The live-run registry: runs from their start to their end (each holding its slot, children holding none)
 * and the starts waiting QUEUED for one (ADM-01). The start pipeline (`start/`) puts runs here; the control
 * plane, waits, cancels and shutdown find them here.
 */
export class RunLauncher {
  private readonly live = new Map<string, WorkflowRun>();
  /** Starts waiting for a slot, announced QUEUED. */
  readonly queued: QueuedRuns;

  constructor(private readonly options: RunLauncherOptions) {
    this.queued = new QueuedRuns(options.clock, (event) => options.bus.publish(event));
  }

  /** Keeps a run live from now until it ends, then frees its slot (children hold none), and starts it. */
  track(run: WorkflowRun, slot: Slot | null): void {
    this.live.set(run.executionId, run);
    void run.done.then(() => {
      this.live.delete(run.executionId);
      slot?.release();
    });
    run.start();
  }

  get(executionId: string): WorkflowRun | undefined {
    return this.live.get(executionId);
  }

  /** Every live run (the plugin-level control bus reaches all runs of a workflow, CTL-08). */
  liveRuns(): Iterable<WorkflowRun> {
    return this.live.values();
  }

  /** Resolves with the run's final status, or null when it is neither live nor queued. */
  wait(executionId: string): Promise<Status> | null {
    return this.live.get(executionId)?.done ?? this.queued.wait(executionId);
  }

  /** Cancels a live run, or takes a queued start out of the queue (it ends CANCELLED without running). */
  cancel(executionId: string): boolean {
    const run = this.live.get(executionId);
    if (run) return (run.cancel(), true);
    const ticket = this.queued.ticket(executionId);
    return ticket !== null && this.options.scheduler.withdraw(ticket);
  }

  /** The scheduler's ticket of a start that waits QUEUED, or null. */
  queuedTicket(executionId: string): Ticket | null {
    return this.queued.ticket(executionId);
  }

  hasLiveRuns(session: string): boolean {
    for (const run of this.live.values()) if (run.session === session) return true;
    return this.queued.hasSession(session);
  }

  get liveCount(): number {
    return this.live.size;
  }

  /**
   * Shutdown (ADM-01): the scheduler admits nothing more and refuses the queued starts; running runs get
   * `yukta.execution.shutdown-timeout` to finish, then the rest are killed (they end CANCELLED).
   */
  async shutdown(): Promise<void> {
    const { scheduler, clock } = this.options;
    scheduler.close();
    const runs = [...this.live.values()];
    if (runs.length === 0) return;
    const graceMs = scheduler.limits.shutdownTimeoutMs;
    if (graceMs > 0) {
      let timer: ReturnType<Clock['setTimer']> | null = null;
      const graceOver = new Promise<void>((resolve) => (timer = clock.setTimer(resolve, graceMs)));
      await Promise.race([Promise.all(runs.map((r) => r.done)), graceOver]);
      if (timer) clock.clearTimer(timer);
    }
    const left = [...this.live.values()];
    // The grace period is over: work still inside a plugin is abandoned (KILL), not awaited.
    for (const run of left) run.stop('KILL');
    await Promise.all(left.map((r) => r.done));
  }
}
