import type { Registry } from 'prom-client';
import type { WorkersView } from '../../shared/api/workers.schema';
import { CLOSE_CODES, WORKER_PROTOCOL_VERSION, type Hello } from '../../shared/workers/worker-protocol';
import type { Clock, TimerHandle } from '../runtime/clock';
import { ConnectedWorker, type WorkerLink } from './connected-worker';
import type { AttemptOutcome, RemoteAttempt } from './remote-attempt';
import { pickWorker, SlotQueue } from './slot-queue';
import { WorkerLostError, WorkerUnavailableError } from './worker-errors';
import { WorkerMetrics } from './worker-metrics';
import { WorkerSession, type SessionHost, type WorkerConnection } from './worker-session';

const MIB = 1024 * 1024;

/** The defaults of the settings table (`yukta.workers.lease`, `yukta.workers.window`, SEC-03's limits). */
export const WORKER_DEFAULTS = { leaseMs: 15_000, window: 16, maxMessageBytes: 10 * MIB, maxDepth: 128 } as const;
/** What a frame may add around its largest message: the envelope, and a batch of small messages. */
export const FRAME_ENVELOPE_BYTES = 64 * 1024;

export interface WorkerRegistryOptions {
  clock: Clock;
  /** `yukta.workers.lease`: a worker that does not renew within it is dropped. */
  leaseMs?: number;
  /** `yukta.workers.window`: outputs the host buffers per attempt before the worker must wait for credit. */
  window?: number;
  /** `yukta.execution.max-message-bytes` and `yukta.execution.max-depth`: the limits of what crosses. */
  maxMessageBytes?: number;
  maxDepth?: number;
  /** False on a high-availability standby: workers are refused with `not_leader`. */
  isLeader?: () => boolean;
  /** Registrations, refusals, drops and refused frames. */
  log?: (level: 'info' | 'warn', text: string) => void;
  /** The engine's Prometheus registry (OBS-04). */
  metrics?: Registry;
}

/**
 * The workers connected to this host (SCL-01): registration and leases, draining, and slots. A worker that
 * misses its lease is dropped and its attempts fail (retryably) naming it. Attempts take slots through
 * `acquire`, which applies the placement rule and queues for a slot when every fitting worker is busy.
 */
export class WorkerRegistry implements SessionHost {
  readonly leaseMs: number;
  readonly window: number;
  readonly maxMessageBytes: number;
  readonly maxDepth: number;
  /** The largest frame accepted (ws `maxPayload`): a message at the byte limit plus its envelope. */
  readonly maxFrameBytes: number;
  private readonly workers = new Map<string, ConnectedWorker>();
  private readonly knownPools = new Set<string>();
  private readonly queue = new SlotQueue(() => this.workers.values());
  private readonly metrics: WorkerMetrics | null;
  private readonly clock: Clock;
  private sweeper: TimerHandle | null = null;
  private listenerUrl: string | null = null;

  constructor(private readonly options: WorkerRegistryOptions) {
    this.clock = options.clock;
    this.leaseMs = options.leaseMs ?? WORKER_DEFAULTS.leaseMs;
    this.window = options.window ?? WORKER_DEFAULTS.window;
    this.maxMessageBytes = options.maxMessageBytes ?? WORKER_DEFAULTS.maxMessageBytes;
    this.maxDepth = options.maxDepth ?? WORKER_DEFAULTS.maxDepth;
    this.maxFrameBytes = this.maxMessageBytes + FRAME_ENVELOPE_BYTES;
    this.metrics = options.metrics ? new WorkerMetrics(options.metrics, () => this.connectedByPool()) : null;
  }

  /** A new connection (the transport authenticated it): the session reads its HELLO and everything after. */
  connect(link: WorkerLink): WorkerConnection {
    return new WorkerSession(this, link);
  }

  /** Where workers connect, as the listener says (`workers.list`); null when this host takes none. */
  setListener(url: string | null): void {
    this.listenerUrl = url;
  }

  get listener(): string | null {
    return this.listenerUrl;
  }

  isLeader(): boolean {
    return this.options.isLeader?.() ?? true;
  }

  log(level: 'info' | 'warn', text: string): void {
    this.options.log?.(level, text);
  }

  register(hello: Hello, link: WorkerLink): ConnectedWorker {
    const old = this.workers.get(hello.name);
    if (old) {
      old.link.close(CLOSE_CODES.replaced, 'replaced by a new connection of the same name');
      this.remove(old, `a new connection of the same name (from ${link.peer}) replaced it`);
    }
    const now = this.clock.now();
    const worker = new ConnectedWorker(hello, link, this, this.window, this.maxFrameBytes, now);
    this.workers.set(worker.name, worker);
    this.knownPools.add(worker.pool);
    worker.push({
      t: 'WELCOME',
      protocol: WORKER_PROTOCOL_VERSION,
      name: worker.name,
      leaseMs: this.leaseMs,
      window: this.window,
      maxMessageBytes: this.maxMessageBytes,
      maxDepth: this.maxDepth,
    });
    worker.flush();
    this.log(
      'info',
      `worker "${worker.name}" (pool ${worker.pool}, ${worker.slots} slot(s), allows ${[...worker.allow].join(', ') || 'nothing'}; version ${worker.version}) registered from ${link.peer}`,
    );
    this.armSweeper();
    this.queue.serve();
    return worker;
  }

  renew(worker: ConnectedWorker, draining: boolean): void {
    worker.renewedAt = this.clock.now();
    if (draining === worker.draining) return;
    worker.draining = draining;
    this.log('info', `worker "${worker.name}" (pool ${worker.pool}) is ${draining ? 'draining: it takes no new attempts' : 'taking attempts again'}`);
    this.queue.serve();
  }

  /** Drops a worker: its attempts fail with WorkerLostError naming it and `reason`. */
  remove(worker: ConnectedWorker, reason: string): void {
    if (this.workers.get(worker.name) !== worker) return;
    this.workers.delete(worker.name);
    const running = worker.used;
    worker.lose(
      (attempt) => new WorkerLostError(`worker "${worker.name}" (pool ${worker.pool}) was lost during ${attempt.describe()}: ${reason}`, worker.name),
    );
    this.log('warn', `worker "${worker.name}" (pool ${worker.pool}) dropped: ${reason}${running ? `; ${running} attempt(s) failed` : ''}`);
    this.queue.serve();
  }

  attemptEnded(worker: ConnectedWorker, attempt: RemoteAttempt, outcome: AttemptOutcome): void {
    this.metrics?.ended(worker.pool, worker.name, outcome, (this.clock.now() - attempt.startedAt) / 1000);
    this.queue.serve(worker.pool);
  }

  /**
   * A slot for an attempt of `type` in `pool` (SCL-01): `open` is called on the chosen worker now when one has a
   * free slot, or later (a promise) when every fitting worker is busy. Throws WorkerUnavailableError at once
   * when no connected, non-draining worker of the pool allows the type.
   */
  acquire<T>(pool: string, type: string, signal: AbortSignal, progress: () => void, open: (worker: ConnectedWorker) => T): T | Promise<T> {
    const pick = pickWorker(this.workers.values(), pool, type);
    if (pick.kind === 'none') {
      this.metrics?.ended(pool, 'none', 'UNAVAILABLE', null);
      throw new WorkerUnavailableError(pick.why);
    }
    if (pick.kind === 'worker') return open(pick.worker);
    return this.queue.wait(pool, type, signal, progress, open);
  }

  /** Drops workers whose lease ran out; runs three times per lease while any is connected. */
  private armSweeper(): void {
    if (this.sweeper !== null || this.workers.size === 0) return;
    this.sweeper = this.clock.setTimer(
      () => {
        this.sweeper = null;
        const now = this.clock.now();
        for (const worker of [...this.workers.values()]) {
          if (now - worker.renewedAt <= this.leaseMs) continue;
          worker.link.close(CLOSE_CODES.leaseExpired, 'lease expired');
          this.remove(worker, `it missed its lease (no renewal for ${now - worker.renewedAt} ms, lease ${this.leaseMs} ms)`);
        }
        this.armSweeper();
      },
      Math.max(1, Math.floor(this.leaseMs / 3)),
    );
  }

  private connectedByPool(): Map<string, number> {
    const counts = new Map<string, number>([...this.knownPools].map((p) => [p, 0]));
    for (const w of this.workers.values()) counts.set(w.pool, (counts.get(w.pool) ?? 0) + 1);
    return counts;
  }

  /** Connected workers, for tests and the studio. */
  get connected(): readonly ConnectedWorker[] {
    return [...this.workers.values()];
  }

  /** `workers.list`: pools and workers, with slots, lease age, running attempts, version and draining. */
  view(): WorkersView {
    const now = this.clock.now();
    const workers = [...this.workers.values()].sort((a, b) => a.pool.localeCompare(b.pool) || a.name.localeCompare(b.name));
    const pools = new Map<string, WorkersView['pools'][number]>();
    for (const w of workers) {
      const p = pools.get(w.pool) ?? { pool: w.pool, workers: 0, draining: 0, slots: 0, used: 0, waiting: 0 };
      p.workers++;
      if (w.draining) p.draining++;
      p.slots += w.slots;
      p.used += w.used;
      pools.set(w.pool, p);
    }
    for (const [pool, waiting] of this.queue.waitingByPool()) {
      const p = pools.get(pool);
      if (p) p.waiting = waiting;
    }
    return {
      at: now,
      listener: this.listenerUrl,
      leaseMs: this.leaseMs,
      pools: [...pools.values()],
      workers: workers.map((w) => ({
        name: w.name,
        pool: w.pool,
        peer: w.link.peer,
        version: w.version,
        allow: [...w.allow].sort(),
        slots: w.slots,
        used: w.used,
        free: w.free,
        draining: w.draining,
        connectedAt: w.connectedAt,
        leaseAgeMs: Math.max(0, now - w.renewedAt),
        attempts: { ...w.outcomes },
      })),
    };
  }

  /** Closes every connection (the host is stopping); their attempts fail as lost. */
  close(): void {
    if (this.sweeper !== null) this.clock.clearTimer(this.sweeper);
    this.sweeper = null;
    for (const worker of [...this.workers.values()]) {
      worker.link.close(CLOSE_CODES.shutdown, 'the host is stopping');
      this.remove(worker, 'the host is stopping');
    }
  }
}
