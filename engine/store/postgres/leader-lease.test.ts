import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../runtime/clock';
import { postgresStorages, type PostgresStorage } from '../../test-support/postgres-storage';
import { LeaderLease, type LeaseStatus } from './leader-lease';
import { inTransaction } from './postgres-connection';
import { PostgresExecutionLog } from './postgres-execution-log';
import type { PostgresDatabase } from './postgres-database';

const LEASE_MS = 900;
const PERIOD_MS = 300;
const storages = postgresStorages();
const open: { close(): Promise<void> }[] = [];

afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close().catch(() => undefined);
});

/** A host on the storage: its lease (own pool, own manual clock) and a writer fenced by it. */
async function host(storage: PostgresStorage, name: string) {
  const clock = new ManualClock(1_000);
  const pool = new pg.Pool({ connectionString: storage.url, max: 2, options: `-c search_path=${storage.schema}` });
  open.push({ close: () => pool.end() });
  const changes: LeaseStatus[] = [];
  const lease = new LeaderLease({ pool, self: { name, url: `http://${name}` }, leaseMs: LEASE_MS, clock, onChange: (s) => changes.push(s) });
  const db: PostgresDatabase = await storage.open({ fencing: lease });
  open.push(db);
  const log = new PostgresExecutionLog(db.writer);
  return { clock, pool, lease, log, changes, db };
}

type Host = Awaited<ReturnType<typeof host>>;

/** A fresh storage with host a leading (its first attempt) and host b standing by. */
async function leaderAndStandby() {
  const storage = await storages();
  const a = await host(storage, 'a');
  await a.lease.start();
  const b = await host(storage, 'b');
  await b.lease.start();
  return { storage, a, b };
}

/** Moves a host's clock by `ms` and lets the lease's queries it sent finish. */
async function advance(h: Host, ms: number): Promise<void> {
  h.clock.advance(ms);
  await h.lease.idle();
}

/** The database's clock passes the lease's expiry (instead of waiting for it). */
async function expireInDatabase(storage: PostgresStorage): Promise<void> {
  const admin = new pg.Client({ connectionString: storage.url, options: `-c search_path=${storage.schema}` });
  await admin.connect();
  await admin.query("UPDATE leader_lease SET expires_at = clock_timestamp() - interval '1 millisecond'");
  await admin.end();
}

async function storedRuns(storage: PostgresStorage): Promise<string[]> {
  const admin = new pg.Client({ connectionString: storage.url, options: `-c search_path=${storage.schema}` });
  await admin.connect();
  const { rows } = await admin.query<{ run_id: string }>('SELECT run_id FROM execution_log ORDER BY seq');
  await admin.end();
  return rows.map((r) => r.run_id);
}

const entry = (runId: string) => ({ runId, type: 'RUN_STARTED' as const, status: 'RUNNING', actor: 'test', at: 1 });

describe('SCL-02 leader lease and fencing', () => {
  it('the first host leads under fencing number 1; a second stands by naming it and refuses to lead', async () => {
    const { a, b } = await leaderAndStandby();
    expect(a.lease.status()).toMatchObject({ role: 'leader', fence: 1, leader: { name: 'a', url: 'http://a' } });
    expect(b.lease.status()).toMatchObject({ role: 'standby', fence: null, leader: { name: 'a', url: 'http://a' } });
    expect(b.lease.isLeader()).toBe(false);
    // Renewals every third of the lease keep a leading; the standby keeps looking and finds the lease taken.
    for (let i = 0; i < 6; i++) {
      await advance(a, PERIOD_MS);
      await advance(b, PERIOD_MS);
    }
    expect(a.lease.isLeader()).toBe(true);
    expect(b.lease.status().role).toBe('standby');
  });

  it('a leader that cannot reach the database stops leading one lease after its last confirmed renewal was sent', async () => {
    const storage = await storages();
    const a = await host(storage, 'a');
    await a.lease.start(); // sent at 1000: leads until 1900
    await advance(a, PERIOD_MS); // renewal sent at 1300, confirmed: leads until 2200
    await a.pool.end(); // the database is out of reach from now on
    open.shift();
    await advance(a, PERIOD_MS); // 1600: renewal fails
    await advance(a, PERIOD_MS); // 1900: fails
    a.clock.advance(PERIOD_MS - 1); // 2199
    expect(a.lease.isLeader()).toBe(true);
    a.clock.advance(1); // 2200
    expect(a.lease.isLeader()).toBe(false);
    expect(a.lease.status()).toMatchObject({ role: 'standby', stepDowns: { expired: 1, lost: 0, fenced: 0, released: 0 } });
    expect(a.changes.map((c) => c.role)).toEqual(['leader', 'standby']);
  });

  it('a standby takes over only once the lease ran out on the database, under the next fencing number; the old leader is refused every write and steps down', async () => {
    const { storage, a, b } = await leaderAndStandby();
    a.log.append(entry('run-by-a'));
    await a.log.flush();

    // a is paused (no renewal); b looks while the database still counts a's lease: nothing happens.
    await advance(b, PERIOD_MS);
    expect(b.lease.status()).toMatchObject({ role: 'standby', leader: { name: 'a' } });
    await expireInDatabase(storage);
    await advance(b, PERIOD_MS);
    expect(b.lease.status()).toMatchObject({ role: 'leader', fence: 2, leader: { name: 'b' } });
    await expect(b.lease.acquired).resolves.toBeUndefined();

    // a wakes up: its next write carries fencing number 1 and the database refuses the whole batch.
    a.log.append(entry('late-write-by-a'));
    await expect(a.log.flush()).rejects.toMatchObject({ code: 'STORE_FENCED' });
    expect(a.lease.status()).toMatchObject({ role: 'deposed', refusedWrites: 1, stepDowns: { fenced: 1 } });
    b.log.append(entry('run-by-b'));
    await b.log.flush();
    expect(await storedRuns(storage)).toEqual(['run-by-a', 'run-by-b']);
    // Deposed for good: it neither renews nor looks again, and never writes again.
    await advance(a, LEASE_MS * 2);
    expect(a.lease.isLeader()).toBe(false);
    a.log.append(entry('later-by-a'));
    await expect(a.log.flush()).rejects.toMatchObject({ code: 'STORE_FENCED' });
  });

  it('a renewal that finds another holder steps the old leader down (lost)', async () => {
    const storage = await storages();
    const a = await host(storage, 'a');
    await a.lease.start();
    const b = await host(storage, 'b');
    await expireInDatabase(storage);
    await b.lease.start();
    expect(b.lease.status()).toMatchObject({ role: 'leader', fence: 2 });
    await advance(a, PERIOD_MS);
    expect(a.lease.status()).toMatchObject({ role: 'deposed', stepDowns: { lost: 1 } });
  });

  it('a standby writes nothing: its stray rows are dropped, and its writer writes once it leads', async () => {
    const { storage, a, b } = await leaderAndStandby();
    b.log.append(entry('stray-on-standby'));
    await expect(b.log.flush()).rejects.toThrow(/written on a standby/);
    expect(b.lease.status()).toMatchObject({ role: 'standby', refusedWrites: 1 });
    await a.lease.release();
    await advance(b, PERIOD_MS);
    expect(b.lease.status()).toMatchObject({ role: 'leader', fence: 2 });
    b.log.append(entry('by-b-leading'));
    await b.log.flush();
    expect(await storedRuns(storage)).toEqual(['by-b-leading']);
  });

  it('a graceful stop releases the lease: the standby takes it at its next look, without waiting for the lease to run out', async () => {
    const { a, b } = await leaderAndStandby();
    await a.lease.release();
    expect(a.lease.status()).toMatchObject({ role: 'standby', stepDowns: { released: 1 } });
    await advance(b, PERIOD_MS);
    expect(b.lease.status()).toMatchObject({ role: 'leader', fence: 2 });
  });

  it('a host stopping before it ever led recovers nothing: acquired rejects', async () => {
    const { storage, b } = await leaderAndStandby();
    b.lease.stopWaiting();
    await expect(b.lease.acquired).rejects.toThrow(/before it led/);
    await expireInDatabase(storage);
    await advance(b, PERIOD_MS);
    expect(b.lease.isLeader()).toBe(false);
  });

  it("a transaction outside the batches (the log's trims) checks the fence too: refused under a stale number, rolled back whole", async () => {
    const storage = await storages();
    const a = await host(storage, 'a');
    await a.lease.start();
    a.log.append(entry('kept'));
    await a.log.flush();
    const b = await host(storage, 'b');
    await expireInDatabase(storage);
    await b.lease.start();
    const trim = inTransaction(a.db.pool, async (client) => {
      await client.query('DELETE FROM execution_log');
      await a.db.writer.checkFence(client);
    });
    await expect(trim).rejects.toMatchObject({ code: 'YF001' });
    expect(await storedRuns(storage)).toEqual(['kept']);
    await inTransaction(b.db.pool, (client) => b.db.writer.checkFence(client));
  });
});
