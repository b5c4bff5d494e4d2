import type { StoredWorkflow } from '../../shared/api/workflows.schema';
import type { Clock, TimerHandle } from '../runtime/clock';
import type { StartRequest } from '../runtime/start/start-types';
import { CronSchedule } from './cron-schedule';
import { CRON_PAYLOAD_KEY, CRON_TRIGGER_TYPE, CronTriggerConfig, type CronFireInfo, type MissedFirePolicy } from './cron-trigger-config';
import { MemoryTriggerStateStore, type TriggerStateStore } from './trigger-state-store';
import type { DefinitionWrite } from './watched-definition-store';

/** A fire handled more than this after its time counts as missed (machine asleep, app closed): 60 s. */
export const DEFAULT_MISSED_GRACE_MS = 60_000;
/** Longest single timer: the wall clock is re-read at least this often, so a sleep is noticed within it. */
export const DEFAULT_TICK_MS = 60_000;
const HISTORY = 200;

/** Engine option `triggers`: where trigger state is kept, and the timing of missed-fire detection. */
export interface CronTriggerOptions {
  /** Last fire per trigger (default: memory; the host passes a file store so closed-app misses are found). */
  state?: TriggerStateStore;
  graceMs?: number;
  tickMs?: number;
}

export interface CronTriggersDeps extends CronTriggerOptions {
  clock: Clock;
  /** Every stored workflow (current versions). */
  workflows(): Promise<StoredWorkflow[]>;
  /** Starts a run through the normal admission path (Engine.startRun). */
  start(request: StartRequest): Promise<{ executionId: string }>;
  onError?: ((error: unknown) => void) | undefined;
}

/** A schedule that is armed, as the studio may show it. */
export interface CronTriggerView {
  session: string;
  workflowId: string;
  nodeId: string;
  expression: string;
  timezone: string;
  missedFires: MissedFirePolicy;
  /** The next fire time, or null when the expression never fires again. */
  nextFireAt: number | null;
}

/** One handled fire: a run started (`executionId`), a start refused (`error`), or missed fires skipped. */
export interface CronFire {
  session: string;
  workflowId: string;
  nodeId: string;
  scheduledAt: number;
  handledAt: number;
  outcome: 'STARTED' | 'REFUSED' | 'SKIPPED';
  /** Fires that got no run of their own. */
  missed: number;
  executionId?: string;
  error?: string;
}

interface Armed {
  key: string;
  session: string;
  workflowId: string;
  nodeId: string;
  config: CronTriggerConfig;
  schedule: CronSchedule;
  /** The last fire handled (or the time the trigger was first armed). */
  last: number;
  timer: TimerHandle | null;
}

/**
 * CRON_TRIGGER scheduling (EXT-01): every stored workflow's enabled CRON_TRIGGER nodes are armed; croner
 * computes the fire times, the engine clock schedules them, and each fire starts a run through the normal
 * admission path with `yukta.cron` in its payload. `sync` re-reads the stored workflows (the engine calls
 * it after every definition write). Missed fires: see `handleDue`.
 */
export class CronTriggers {
  private readonly armed = new Map<string, Armed>();
  private readonly state: TriggerStateStore;
  private readonly graceMs: number;
  private readonly tickMs: number;
  private readonly fires: CronFire[] = [];
  private queue: Promise<void> = Promise.resolve();
  private queued: Promise<void> | null = null;
  private closed = false;
  private busy = false;
  private readonly writes = new Set<Promise<void>>();

  constructor(private readonly deps: CronTriggersDeps) {
    this.state = deps.state ?? new MemoryTriggerStateStore();
    this.graceMs = deps.graceMs ?? DEFAULT_MISSED_GRACE_MS;
    this.tickMs = deps.tickMs ?? DEFAULT_TICK_MS;
  }

  /** Re-reads the stored workflows and arms, re-arms or disarms schedules; calls made while one waits share it. */
  sync(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.queued) return this.queued;
    this.busy = true;
    const next = this.queue
      .then(() => {
        this.queued = null;
        this.busy = true;
        return this.syncNow();
      })
      .catch((error: unknown) => this.deps.onError?.(error))
      .finally(() => {
        this.busy = this.queued !== null;
      });
    this.queued = next;
    this.queue = next;
    return next;
  }

  /**
   * A definition write (WatchedDefinitionStore): syncs unless it plainly cannot matter (a workflow saved
   * without CRON_TRIGGER nodes that had no armed schedule, or such a workflow deleted).
   */
  changed(write: DefinitionWrite): void {
    // While a sync runs or waits, the armed set may be stale: always sync again then.
    if (write.workflowId !== undefined && !this.busy) {
      const hasCron = write.definition?.nodes.some((n) => n.type === CRON_TRIGGER_TYPE) ?? false;
      const wasArmed = [...this.armed.values()].some((a) => a.session === write.session && a.workflowId === write.workflowId);
      if (!hasCron && !wasArmed) return;
    }
    void this.sync();
  }

  /** The armed schedules with their next fire time. */
  list(): CronTriggerView[] {
    return [...this.armed.values()].map((a) => ({
      session: a.session,
      workflowId: a.workflowId,
      nodeId: a.nodeId,
      expression: a.config.expression,
      timezone: a.config.timezone,
      missedFires: a.config.missedFires,
      nextFireAt: a.schedule.nextAfter(a.last),
    }));
  }

  /** The armed schedules (optionally of one session / workflow), each with the newest fire it handled (`triggers.list`). */
  view(
    filter: { session?: string | undefined; workflowId?: string | undefined } = {},
  ): Array<CronTriggerView & { lastFire?: Omit<CronFire, 'session' | 'workflowId' | 'nodeId'> }> {
    const last = new Map<string, CronFire>();
    for (const fire of this.fires) last.set(`${fire.session}\u0000${fire.workflowId}\u0000${fire.nodeId}`, fire);
    return this.list()
      .filter((t) => (filter.session === undefined || t.session === filter.session) && (filter.workflowId === undefined || t.workflowId === filter.workflowId))
      .map((t) => {
        const fire = last.get(`${t.session}\u0000${t.workflowId}\u0000${t.nodeId}`);
        if (!fire) return t;
        const { session: _s, workflowId: _w, nodeId: _n, ...lastFire } = fire;
        return { ...t, lastFire };
      });
  }

  /** The newest handled fires, oldest first. */
  history(): readonly CronFire[] {
    return this.fires;
  }

  /** Stops every timer (engine shutdown); nothing fires afterwards. Resolves once the last fires are stored. */
  async close(): Promise<void> {
    this.closed = true;
    for (const a of this.armed.values()) this.disarm(a);
    this.armed.clear();
    await Promise.all([...this.writes]);
  }

  private async syncNow(): Promise<void> {
    const wanted = new Map<string, Omit<Armed, 'last' | 'timer'>>();
    for (const stored of await this.deps.workflows()) {
      for (const node of stored.definition.nodes) {
        if (node.type !== CRON_TRIGGER_TYPE) continue;
        const parsed = CronTriggerConfig.safeParse(stripEngine(node.config));
        if (!parsed.success || !parsed.data.enabled) continue;
        const config = parsed.data;
        const key = `${stored.session}/${stored.definition.workflowId}/${node.nodeId}@${config.expression}|${config.timezone}`;
        wanted.set(key, {
          key,
          session: stored.session,
          workflowId: stored.definition.workflowId,
          nodeId: node.nodeId,
          config,
          schedule: new CronSchedule(config),
        });
      }
    }
    if (this.closed) return;
    const saved = await this.state.load();
    for (const [key, armed] of this.armed) {
      if (wanted.has(key)) {
        // Same schedule; the policy or payload may have changed.
        armed.config = wanted.get(key)!.config;
        continue;
      }
      this.disarm(armed);
      this.armed.delete(key);
      await this.state.remove(key);
    }
    for (const [key, spec] of wanted) {
      if (this.armed.has(key) || this.closed) continue;
      const now = this.deps.clock.now();
      const last = saved[key];
      const armed: Armed = { ...spec, last: last ?? now, timer: null };
      this.armed.set(key, armed);
      // First arming: this is the baseline from which later misses (app closed) are counted.
      if (last === undefined) await this.state.save(key, now);
      this.tick(armed);
    }
  }

  private disarm(armed: Armed): void {
    if (armed.timer) this.deps.clock.clearTimer(armed.timer);
    armed.timer = null;
  }

  /** Handles what is due, then sleeps until the next fire (at most `tickMs`, so a jump of the wall clock is seen). */
  private tick(armed: Armed): void {
    if (this.closed || this.armed.get(armed.key) !== armed) return;
    const now = this.deps.clock.now();
    const due = armed.schedule.firesBetween(armed.last, now);
    if (due.latest !== null) this.handleDue(armed, due.count, due.latest, now);
    const next = armed.schedule.nextAfter(armed.last);
    if (next === null) return;
    armed.timer = this.deps.clock.setTimer(() => this.tick(armed), Math.max(1, Math.min(next - now, this.tickMs)));
  }

  /**
   * The missed-fire policy. Of the fires due since the last one handled, only the latest may start a run:
   * on time (within `graceMs`) it always does, and the older ones count as missed; when even the latest is
   * later than `graceMs` (the app was closed or the machine slept), SKIP drops them all and RUN_ONCE starts
   * one run for all of them now.
   */
  private handleDue(armed: Armed, count: number, latest: number, now: number): void {
    armed.last = latest;
    const write = this.state.save(armed.key, latest).catch((error: unknown) => this.deps.onError?.(error));
    this.writes.add(write);
    void write.finally(() => this.writes.delete(write));
    const onTime = now - latest <= this.graceMs;
    if (!onTime && armed.config.missedFires === 'SKIP') {
      this.remember({ ...this.where(armed), scheduledAt: latest, handledAt: now, outcome: 'SKIPPED', missed: count });
      return;
    }
    void this.fire(armed, latest, now, count - 1, !onTime);
  }

  private async fire(armed: Armed, scheduledAt: number, now: number, missed: number, catchUp: boolean): Promise<void> {
    const info: CronFireInfo = {
      nodeId: armed.nodeId,
      scheduledAt: new Date(scheduledAt).toISOString(),
      firedAt: new Date(now).toISOString(),
      missed,
      catchUp,
    };
    const request: StartRequest = {
      session: armed.session,
      workflowId: armed.workflowId,
      payload: { [CRON_PAYLOAD_KEY]: info },
    };
    const base = { ...this.where(armed), scheduledAt, handledAt: now, missed };
    try {
      const { executionId } = await this.deps.start(request);
      this.remember({ ...base, outcome: 'STARTED', executionId });
    } catch (error) {
      // A refused start (limits, queue full, shutdown) is not retried: the next fire comes on schedule.
      this.remember({ ...base, outcome: 'REFUSED', error: error instanceof Error ? error.message : String(error) });
    }
  }

  private where(armed: Armed): Pick<CronFire, 'session' | 'workflowId' | 'nodeId'> {
    return { session: armed.session, workflowId: armed.workflowId, nodeId: armed.nodeId };
  }

  private remember(fire: CronFire): void {
    this.fires.push(fire);
    if (this.fires.length > HISTORY) this.fires.shift();
  }
}

function stripEngine(config: Record<string, unknown> | undefined): Record<string, unknown> {
  const { engine: _engine, ...rest } = config ?? {};
  return rest;
}
