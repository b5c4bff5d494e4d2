/**
 * SCL-02 failover time over 20 kills in a row (`npm run bench:ha-failover [-- --kills 20 --lease 1500]`):
 * two `yukta serve` processes on one PostgreSQL database; each round kill -9s the leader and measures, on
 * this process's monotonic clock, how long until the standby's `GET /api/ha` says `leader`, then starts a
 * new standby for the next round. Each kill comes at a random point of the leader's renewal period. The baseline is the lease itself: the ratio failover / lease (at most
 * 1 + 1/3 by design: the lease runs out, then the standby's next look — plus the takeover's round trips),
 * per round, then the median and the worst. `YUKTA_TEST_PG_URL` picks the server (else a throwaway cluster).
 */
import { haStatus, killHost, pollFor, serveHa, type ServedHost } from '../main/host/ha-test-support';
import { argNumber } from './lib';
import { benchServer } from './postgres-server';

const kills = argNumber('kills', 20);
const leaseMs = argNumber('lease', 1500);
const server = await benchServer();
const schema = await server.schema();
const options = { url: server.url, schema: schema.name, leaseMs };
let leader: ServedHost | null = null;
let standby: ServedHost | null = null;
const rounds: number[] = [];
try {
  leader = await serveHa('host-0', options);
  standby = await serveHa('host-1', options);
  console.log(`SCL-02 failover: ${kills} kills in a row, yukta.ha.lease ${leaseMs} ms (renewed every ${Math.floor(leaseMs / 3)} ms)`);
  console.log('round  failover ms  ratio to lease');
  for (let round = 1; round <= kills; round++) {
    await pollFor(`round ${round}: the standby sees the leader`, leaseMs * 3, async () => (await haStatus(standby!)).leader?.name === leader!.name);
    // At a random point of the leader's renewal period (right after a renewal is the worst case): without
    // it, the rounds' own rhythm would kill at the same phase every time.
    await new Promise((r) => setTimeout(r, Math.random() * (leaseMs / 3)));
    leader.child.kill('SIGKILL');
    const killedAt = performance.now();
    await pollFor(`round ${round}: the standby leads`, leaseMs * 4, async () => (await haStatus(standby!)).role === 'leader');
    const ms = performance.now() - killedAt;
    rounds.push(ms);
    console.log(`${String(round).padStart(5)}  ${ms.toFixed(0).padStart(11)}  ${(ms / leaseMs).toFixed(2).padStart(14)}`);
    await leader.exited;
    leader = standby;
    standby = await serveHa(`host-${round + 1}`, options);
  }
  const sorted = [...rounds].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)]!;
  const worst = sorted.at(-1)!;
  console.log(
    `median ${median.toFixed(0)} ms (${(median / leaseMs).toFixed(2)}× the lease), worst ${worst.toFixed(0)} ms (${(worst / leaseMs).toFixed(2)}×); bound by design: lease + one renewal period = ${((leaseMs * 4) / 3).toFixed(0)} ms (1.33×)`,
  );
} finally {
  for (const host of [leader, standby]) if (host) await killHost(host);
  await schema.drop().catch(() => undefined);
  await server.stop();
}
