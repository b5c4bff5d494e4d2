import { hostname } from 'node:os';
import { Counter, Gauge, type Registry } from 'prom-client';
import {
  LeaderLease,
  migratePostgres,
  openPool,
  POSTGRES_MIGRATIONS,
  STEP_DOWN_REASONS,
  SystemClock,
  type LeaseStatus,
  type PostgresConnectionOptions,
} from '../../engine/index';
import type { HaStatus } from '../../shared/api/ha.schema';
import type { HostSettings } from './host-settings';

/** The settings of SCL-02 a host reads at start. */
export interface HaSettings {
  readonly leaseMs: number;
  readonly name: string;
  readonly url: string | null;
}

/** The SCL-02 settings (mode, lease, host name, advertised URL) when `yukta.ha.mode=postgres` (which needs the postgres store), else null. */
export function haSettingsOf(settings: HostSettings, storeKind: string): HaSettings | null {
  if (settings['yukta.ha.mode'] !== 'postgres') return null;
  if (storeKind !== 'postgres')
    throw new Error(`yukta.ha.mode=postgres needs the postgres store (the lease lives in its database), but the store is ${storeKind}: pass --store postgres`);
  const leaseMs = settings['yukta.ha.lease'];
  if (leaseMs < 300) throw new Error(`setting yukta.ha.lease: must be at least 300 ms (got ${leaseMs} ms)`);
  return { leaseMs, name: settings['yukta.ha.host-name'] ?? `${hostname()}:${process.pid}`, url: settings['yukta.ha.advertised-url'] ?? null };
}

/** Time on the monotonic clock (`performance.now`): a lease must not move with the wall clock. */
export class MonotonicClock extends SystemClock {
  override now(): number {
    return performance.now();
  }
}

/** A host's leader lease (SCL-02): the lease, its own two connections, and what the studio shows of it. */
export class HostLease {
  private constructor(
    readonly lease: LeaderLease,
    private readonly settings: HaSettings,
    private readonly end: () => Promise<void>,
  ) {}

  /**
   * Connects (two connections of its own, timing out within a renewal period), brings the schema up to
   * date and makes the first attempt: a host alone on its database leads when this resolves.
   */
  static async open(
    connection: PostgresConnectionOptions,
    settings: HaSettings,
    hooks: { onChange?: (status: LeaseStatus) => void; onError?: (error: Error) => void } = {},
  ): Promise<HostLease> {
    const period = Math.floor(settings.leaseMs / 3);
    const pool = openPool({ ...connection, poolSize: 2, statementTimeoutMs: period }, hooks.onError, period);
    try {
      await migratePostgres(pool, POSTGRES_MIGRATIONS, { schema: connection.schema });
      const lease = new LeaderLease({
        pool,
        self: { name: settings.name, url: settings.url },
        leaseMs: settings.leaseMs,
        clock: new MonotonicClock(),
        onChange: hooks.onChange,
        onError: hooks.onError,
      });
      await lease.start();
      return new HostLease(lease, settings, () => pool.end());
    } catch (error) {
      await pool.end().catch(() => undefined);
      throw error;
    }
  }

  /** "name (url)" of the leader, for a standby's refusals; null while nobody holds a live lease. */
  leaderName(): string | null {
    const leader = this.lease.status().leader;
    return leader === null ? null : leader.url ? `${leader.name} (${leader.url})` : leader.name;
  }

  /** Why this host may not change shared state (a standby, or a leader that stepped down); null while it leads. */
  standbyReason(): string | null {
    if (this.lease.isLeader()) return null;
    const leader = this.leaderName();
    return `this server is a standby (read-only); ${leader === null ? 'no leader holds the lease right now' : `leader is ${leader}`}: send it to the leader`;
  }

  /** What `ha.status` answers. */
  status(): HaStatus {
    const s = this.lease.status();
    return {
      mode: 'postgres',
      role: s.role,
      self: this.settings.name,
      leader: s.leader,
      fence: s.fence,
      leaseMs: this.settings.leaseMs,
      stepDowns: s.stepDowns,
      refusedWrites: s.refusedWrites,
    };
  }

  /** `yukta_ha_leader`, `yukta_ha_fence`, `yukta_ha_step_downs_total{reason}`, `yukta_ha_refused_writes_total` in the engine's registry. */
  registerMetrics(registry: Registry): void {
    const lease = this.lease;
    const registers = [registry];
    new Gauge({
      name: 'yukta_ha_leader',
      help: '1 while this host leads its active/standby pair, else 0 (yukta.ha.leader).',
      registers,
      collect() {
        this.set(lease.isLeader() ? 1 : 0);
      },
    });
    new Gauge({
      name: 'yukta_ha_fence',
      help: 'The fencing number this host writes under, 0 before it first leads (yukta.ha.fence).',
      registers,
      collect() {
        this.set(lease.fence() ?? 0);
      },
    });
    new Counter({
      name: 'yukta_ha_step_downs_total',
      help: 'Times this host stopped leading, by reason (yukta.ha.step-downs).',
      labelNames: ['reason'],
      registers,
      collect() {
        const counts = lease.status().stepDowns;
        this.reset();
        for (const reason of STEP_DOWN_REASONS) this.labels(reason).inc(counts[reason]);
      },
    });
    new Counter({
      name: 'yukta_ha_refused_writes_total',
      help: 'Write batches the database refused under a stale fencing number (yukta.ha.refused-writes).',
      registers,
      collect() {
        this.reset();
        this.inc(lease.status().refusedWrites);
      },
    });
  }

  /** Gives the lease up (a standby takes over at its next look) and closes its connections. */
  async close(): Promise<void> {
    try {
      await this.lease.release();
    } finally {
      await this.end();
    }
  }
}
