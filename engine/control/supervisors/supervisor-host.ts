import { ControlCommand, type ControlCommandInput } from '../../../shared/api/control.schema';
import type { SupervisorInfo } from '../../../shared/api/supervisors.schema';
import type { StudioEvent } from '../../../shared/events/events';
import type { Clock } from '../../runtime/clock';
import { BoundedFeed } from './bounded-feed';
import type { Supervisor, SupervisorCommand } from './supervisor';

/** `yukta.supervisor.max-commands-per-second`. */
export const DEFAULT_MAX_COMMANDS_PER_SECOND = 20;
/** Events a supervisor's buffer holds before it drops (CTL-07). */
export const SUPERVISOR_BUFFER = 256;
const FIRST_BACKOFF_MS = 100;
const MAX_BACKOFF_MS = 30_000;
/** Dry-run commands kept for `supervisors.list`. */
const RECENT_DRY_RUN = 20;

export interface SupervisorHostOptions {
  clock: Clock;
  subscribe(listener: (event: StudioEvent) => void): () => void;
  /** Applies a command with the supervisor's actor (the control pipeline). */
  send(executionId: string, command: ControlCommand, actor: string): Promise<unknown>;
  /** The actor whose command is being applied right now: its events are its own outcome. */
  applyingActor(): string | null;
  maxCommandsPerSecond?: number;
  dryRun?: boolean;
  bufferSize?: number;
}

type Counts = NonNullable<SupervisorInfo['commands']>;

/** One supervisor's subscription, isolation and counters. */
class SupervisedRunner {
  readonly actor: string;
  state: 'RUNNING' | 'BACKOFF' | 'ENDED' = 'RUNNING';
  readonly counts: Counts = { applied: 0, rejected: 0, dryRun: 0, rateLimited: 0, invalid: 0 };
  dropped = 0;
  restarts = 0;
  lastError: string | undefined;
  readonly recentDryRun: SupervisorCommand[] = [];
  private feed: BoundedFeed<StudioEvent> | null = null;
  private readonly sent: number[] = [];
  private readonly abort = new AbortController();
  private backoffTimer: ReturnType<Clock['setTimer']> | null = null;
  private wake: (() => void) | null = null;

  constructor(
    readonly supervisor: Supervisor,
    readonly order: number,
    private readonly options: SupervisorHostOptions,
    private readonly onDrop: () => void,
  ) {
    this.actor = `supervisor:${supervisor.id}`;
  }

  /** Offered every event of the bus; never waits. */
  readonly offer = (event: StudioEvent): void => {
    if (this.options.applyingActor() === this.actor) return;
    if (event.type === 'CONTROL' && event.actor === this.actor) return;
    if (this.supervisor.wants && !this.supervisor.wants(event)) return;
    this.feed?.push(event);
  };

  async run(): Promise<void> {
    for (let attempt = 0; !this.abort.signal.aborted; attempt++) {
      this.feed = new BoundedFeed<StudioEvent>(this.options.bufferSize ?? SUPERVISOR_BUFFER, () => {
        this.dropped++;
        this.onDrop();
      });
      this.state = 'RUNNING';
      try {
        for await (const command of this.supervisor.supervise(this.feed, this.abort.signal)) {
          this.handle(command);
          if (this.abort.signal.aborted) break;
        }
        this.state = 'ENDED';
        return;
      } catch (error) {
        this.lastError = error instanceof Error ? error.message : String(error);
        this.restarts++;
      } finally {
        this.feed.close();
        this.feed = null;
      }
      this.state = 'BACKOFF';
      await this.backoff(Math.min(MAX_BACKOFF_MS, FIRST_BACKOFF_MS * 2 ** Math.min(attempt, 20)));
    }
    this.state = 'ENDED';
  }

  stop(): void {
    this.abort.abort();
    this.feed?.close();
    if (this.backoffTimer) this.options.clock.clearTimer(this.backoffTimer);
    this.wake?.();
  }

  get buffered(): number {
    return this.feed?.length ?? 0;
  }

  private backoff(ms: number): Promise<void> {
    return new Promise((resolve) => {
      this.wake = resolve;
      this.backoffTimer = this.options.clock.setTimer(resolve, ms);
    });
  }

  private handle(request: SupervisorCommand): void {
    const parsed = ControlCommand.safeParse(request.command as ControlCommandInput);
    if (!parsed.success || typeof request.executionId !== 'string') return void this.counts.invalid++;
    if (!this.withinRate()) return void this.counts.rateLimited++;
    if (this.options.dryRun) {
      this.counts.dryRun++;
      this.recentDryRun.push({ executionId: request.executionId, command: parsed.data });
      if (this.recentDryRun.length > RECENT_DRY_RUN) this.recentDryRun.shift();
      return;
    }
    // Not awaited: the supervisor never sees the outcome of its own commands, and a slow one never blocks it.
    this.options.send(request.executionId, parsed.data, this.actor).then(
      () => this.counts.applied++,
      () => this.counts.rejected++,
    );
  }

  /** A sliding one-second window on the engine clock. */
  private withinRate(): boolean {
    const limit = this.options.maxCommandsPerSecond ?? DEFAULT_MAX_COMMANDS_PER_SECOND;
    const now = this.options.clock.now();
    while (this.sent.length && this.sent[0]! <= now - 1000) this.sent.shift();
    if (this.sent.length >= limit) return false;
    this.sent.push(now);
    return true;
  }
}

/**
 * Runs the supervisors on the global event feed (CTL-07), each isolated: its own bounded buffer fed
 * synchronously from the bus (drops counted as `yukta.tracker.dropped{kind=supervisor}`), its own
 * command rate limit, a resubscription with exponential backoff (100 ms … 30 s) when it throws, and
 * dry-run mode that records commands without applying them.
 */
export class SupervisorHost {
  private readonly runners: SupervisedRunner[] = [];
  private unsubscribe: (() => void) | null = null;
  private droppedTotal = 0;

  constructor(private readonly options: SupervisorHostOptions) {}

  add(supervisor: Supervisor): void {
    if (this.runners.some((r) => r.supervisor.id === supervisor.id)) throw new Error(`a supervisor "${supervisor.id}" is already running`);
    const runner = new SupervisedRunner(supervisor, this.runners.length, this.options, () => this.droppedTotal++);
    this.runners.push(runner);
    this.unsubscribe ??= this.options.subscribe((event) => {
      for (const r of this.runners) r.offer(event);
    });
    void runner.run();
  }

  list(): SupervisorInfo[] {
    return this.runners.map((r) => ({
      id: r.supervisor.id,
      kind: 'SUPERVISOR' as const,
      order: r.order,
      dryRun: this.options.dryRun ?? false,
      state: r.state,
      commands: { ...r.counts },
      dropped: r.dropped,
      restarts: r.restarts,
      ...(r.lastError !== undefined ? { lastError: r.lastError } : {}),
    }));
  }

  /** Events dropped by all supervisors' buffers (`yukta.tracker.dropped{kind=supervisor}`). */
  get dropped(): number {
    return this.droppedTotal;
  }

  /** Events waiting in each supervisor's buffer (never more than its capacity). */
  buffered(): Record<string, number> {
    return Object.fromEntries(this.runners.map((r) => [r.supervisor.id, r.buffered]));
  }

  /** Commands recorded in dry-run mode, newest last. */
  dryRunCommands(id: string): SupervisorCommand[] {
    return [...(this.runners.find((r) => r.supervisor.id === id)?.recentDryRun ?? [])];
  }

  close(): void {
    this.unsubscribe?.();
    this.unsubscribe = null;
    for (const r of this.runners) r.stop();
  }
}
