import type pg from 'pg';
import type { Clock, TimerHandle } from '../../runtime/clock';
import type { StoreWriteError } from '../store-errors';
import { inTransaction } from './postgres-connection';
import { NEVER_LED_FENCE, type WriterFencing } from './postgres-writer';

/** Who holds the lease, as the database says (its advertised name and address). */
export interface LeaseHolder {
  readonly name: string;
  readonly url: string | null;
}

/** Why a leader stopped leading (`yukta.ha.step-downs` by reason). */
export const STEP_DOWN_REASONS = ['expired', 'lost', 'fenced', 'released'] as const;
export type StepDownReason = (typeof STEP_DOWN_REASONS)[number];

/** This host's part in the pair: leading, waiting to lead, or out for good (another host took its lease). */
export type LeaseRole = 'leader' | 'standby' | 'deposed';

export interface LeaseStatus {
  readonly role: LeaseRole;
  /** The fencing number this host writes under (null until it first leads). */
  readonly fence: number | null;
  /** The holder the database names (this host when leading); null while nobody holds a live lease. */
  readonly leader: LeaseHolder | null;
  /** Times leading ended, by why (a leader's lease running out on it, taken, its writes refused, released). */
  readonly stepDowns: Readonly<Record<StepDownReason, number>>;
  /** Batches of this host's writer the database refused under a stale fencing number. */
  readonly refusedWrites: number;
}

export interface LeaderLeaseOptions {
  /** A pool of its own (two connections), so renewals never queue behind the stores' writes. */
  pool: pg.Pool;
  /** What other hosts show as "leader is <name>" (`yukta.ha.host-name`) and where to reach it. */
  self: LeaseHolder;
  /** `yukta.ha.lease` (15 s): renewed three times per lease. */
  leaseMs: number;
  /** A monotonic clock (`MonotonicClock`; a `ManualClock` in tests): a host leads until renewal time + lease on it. */
  clock: Clock;
  /** The role or the leader changed. */
  onChange?: (status: LeaseStatus) => void;
  /** A renewal or a takeover attempt failed (the database is unreachable): tried again next period. */
  onError?: (error: Error) => void;
}

/**
 * The leader lease of an active/standby pair on one PostgreSQL database (SCL-02). One row (`leader_lease`,
 * migration 7) names the holder and a fencing number that grows with every change of holder. Every third
 * of a lease the leader renews it and a standby looks whether it ran out (the database's clock decides),
 * taking it then with the next fencing number. A host counts itself leader only until its last confirmed
 * renewal's *send time* plus the lease, on its own monotonic clock: the database set the expiry later than
 * that, so a host that cannot reach the database stops leading before another can take over. The stores
 * write under `fence()`; when the database refuses it (`refused`), another host leads and this one is out
 * for good (its memory of runs is stale: restart it to rejoin as a standby).
 */
export class LeaderLease implements WriterFencing {
  private held: number | null = null;
  /** Monotonic time until which this host leads (its last confirmed renewal's send time + the lease). */
  private validUntil = Number.NEGATIVE_INFINITY;
  private deposed = false;
  private stopped = false;
  private leading = false;
  private knownLeader: LeaseHolder | null = null;
  private tickTimer: TimerHandle | null = null;
  private expiryTimer: TimerHandle | null = null;
  private ticking: Promise<void> | null = null;
  private refusedWrites = 0;
  /** The role and leader last reported (`onChange` fires on a change only, not on every renewal). */
  private lastSeen = '';
  private readonly counts: Record<StepDownReason, number> = { expired: 0, lost: 0, fenced: 0, released: 0 };
  private readonly firstLead: { promise: Promise<void>; resolve: () => void; reject: (error: Error) => void };

  constructor(private readonly options: LeaderLeaseOptions) {
    if (!(options.leaseMs >= 3)) throw new Error(`yukta.ha.lease: must be at least 3 ms (got ${options.leaseMs})`);
    let resolve!: () => void;
    let reject!: (error: Error) => void;
    const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
    promise.catch(() => undefined);
    this.firstLead = { promise, resolve, reject };
  }

  /** Settles the first time this host leads; rejects when it stops before that. */
  get acquired(): Promise<void> {
    return this.firstLead.promise;
  }

  /** A third of the lease: how often the leader renews and a standby looks. */
  get periodMs(): number {
    return Math.floor(this.options.leaseMs / 3);
  }

  /** The first attempt (a lone host leads at once), then one every period. */
  async start(): Promise<void> {
    await this.tick();
  }

  /** Settles when the renewal or look in flight (if any) has finished. */
  async idle(): Promise<void> {
    await this.ticking;
  }

  isLeader(): boolean {
    return this.held !== null && !this.deposed && !this.stopped && this.options.clock.now() < this.validUntil;
  }

  /** The number to write under: the lease's while this host holds it; -1 (refused by the database) before it first leads. */
  fence(): number {
    return this.held ?? NEVER_LED_FENCE;
  }

  status(): LeaseStatus {
    const role: LeaseRole = this.deposed ? 'deposed' : this.isLeader() ? 'leader' : 'standby';
    return {
      role,
      fence: this.held,
      leader: role === 'leader' ? this.options.self : this.knownLeader,
      stepDowns: { ...this.counts },
      refusedWrites: this.refusedWrites,
    };
  }

  /** The database refused a write under this host's number (SCL-02): another host leads. */
  refused(_error: StoreWriteError): boolean {
    this.refusedWrites++;
    if (this.held === null) return false;
    this.depose('fenced');
    return true;
  }

  /** The host is stopping: if it has not led yet, it never will (`acquired` rejects); a leader keeps its lease until `release`. */
  stopWaiting(): void {
    if (this.held !== null) return;
    this.stopped = true;
    this.clearTimers();
    this.firstLead.reject(new Error('the host stopped before it led'));
  }

  /** Graceful stop: no more renewals; the lease is given up so a standby takes over at its next look. */
  async release(): Promise<void> {
    if (this.stopped) return;
    const wasLeader = this.isLeader();
    this.stopped = true;
    this.clearTimers();
    this.firstLead.reject(new Error('the host stopped before it led'));
    await this.ticking?.catch(() => undefined);
    if (this.held !== null && !this.deposed) {
      await this.options.pool
        .query("UPDATE leader_lease SET holder = NULL, holder_url = NULL, expires_at = '-infinity' WHERE name = 'leader' AND fence = $1", [this.held])
        .catch((e: Error) => this.options.onError?.(e));
    }
    if (wasLeader) this.counts.released++;
    this.changed();
  }

  private readonly tick = async (): Promise<void> => {
    this.tickTimer = null;
    if (this.stopped || this.deposed) return;
    const sentAt = this.options.clock.now();
    this.ticking = (this.held === null ? this.tryTakeOver(sentAt) : this.renew(sentAt)).catch((error: Error) => this.options.onError?.(error));
    await this.ticking;
    this.ticking = null;
    if (!this.stopped && !this.deposed) this.tickTimer = this.options.clock.setTimer(() => void this.tick(), this.periodMs);
  };

  /** Renews the lease this host holds; none left under its number: another host took it. */
  private async renew(sentAt: number): Promise<void> {
    const { rowCount } = await this.options.pool.query(
      "UPDATE leader_lease SET expires_at = clock_timestamp() + $2 * interval '1 millisecond' WHERE name = 'leader' AND fence = $1",
      [this.held, this.options.leaseMs],
    );
    if (this.stopped) return;
    if (rowCount === 0) return this.depose('lost');
    this.confirmed(sentAt);
  }

  /** A standby's look: the holder, and when its lease ran out (by the database's clock), the lease under the next number. */
  private async tryTakeOver(sentAt: number): Promise<void> {
    const look = await this.options.pool.query<HolderRow>(
      "SELECT holder, holder_url, expires_at <= clock_timestamp() AS free FROM leader_lease WHERE name = 'leader'",
    );
    if (!look.rows[0]?.free) return this.sawLeader(look.rows[0]);
    // Locked FOR UPDATE: batches already checked under the old number (FOR KEY SHARE) commit first; later ones are refused.
    const fence = await inTransaction(this.options.pool, async (client) => {
      const row = (
        await client.query<HolderRow>("SELECT holder, holder_url, expires_at <= clock_timestamp() AS free FROM leader_lease WHERE name = 'leader' FOR UPDATE")
      ).rows[0];
      if (!row?.free) {
        this.sawLeader(row);
        return null;
      }
      const taken = await client.query<{ fence: string }>(
        "UPDATE leader_lease SET holder = $1, holder_url = $2, fence = fence + 1, acquired_at = clock_timestamp(), expires_at = clock_timestamp() + $3 * interval '1 millisecond' WHERE name = 'leader' RETURNING fence",
        [this.options.self.name, this.options.self.url, this.options.leaseMs],
      );
      return Number(taken.rows[0]!.fence);
    });
    if (fence === null) return;
    if (this.stopped)
      return void (await this.options.pool.query(
        "UPDATE leader_lease SET holder = NULL, holder_url = NULL, expires_at = '-infinity' WHERE name = 'leader' AND fence = $1",
        [fence],
      ));
    this.held = fence;
    this.confirmed(sentAt);
    this.firstLead.resolve();
  }

  private sawLeader(row: HolderRow | undefined): void {
    const leader = row?.holder && !row.free ? { name: row.holder, url: row.holder_url } : null;
    if (leader?.name === this.knownLeader?.name && leader?.url === this.knownLeader?.url) return;
    this.knownLeader = leader;
    this.changed();
  }

  /** A renewal (or the takeover) sent at `sentAt` is confirmed: this host leads until `sentAt` + the lease. */
  private confirmed(sentAt: number): void {
    this.validUntil = sentAt + this.options.leaseMs;
    this.armExpiry();
    this.changed();
  }

  private armExpiry(): void {
    if (this.expiryTimer !== null) this.options.clock.clearTimer(this.expiryTimer);
    this.expiryTimer = this.options.clock.setTimer(() => this.expired(), Math.max(0, this.validUntil - this.options.clock.now()));
  }

  /** No renewal was confirmed within the lease: it stops leading now (and leads again if a late renewal still finds its number). */
  private expired(): void {
    this.expiryTimer = null;
    if (this.stopped || this.deposed) return;
    // A timer may fire a fraction of a millisecond early by the monotonic clock: look again then.
    if (this.options.clock.now() < this.validUntil) return this.armExpiry();
    this.changed();
  }

  private depose(reason: StepDownReason): void {
    if (this.deposed || this.stopped) return;
    this.deposed = true;
    this.clearTimers();
    this.knownLeader = null;
    this.changed(reason);
  }

  /** Reports a change of role or leader; a leader turning standby counts as one step-down (`reason`, else `expired`). */
  private changed(reason: StepDownReason = 'expired'): void {
    const leading = this.isLeader();
    if (this.leading && !leading && !this.stopped) this.counts[reason]++;
    this.leading = leading;
    const status = this.status();
    const seen = `${status.role} ${status.fence} ${status.leader?.name} ${status.leader?.url}`;
    if (seen === this.lastSeen) return;
    this.lastSeen = seen;
    this.options.onChange?.(status);
  }

  private clearTimers(): void {
    if (this.tickTimer !== null) this.options.clock.clearTimer(this.tickTimer);
    if (this.expiryTimer !== null) this.options.clock.clearTimer(this.expiryTimer);
    this.tickTimer = this.expiryTimer = null;
  }
}

interface HolderRow {
  holder: string | null;
  holder_url: string | null;
  free: boolean;
}
