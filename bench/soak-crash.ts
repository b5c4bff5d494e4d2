/**
 * `npm run bench:soak-crash [-- --iterations N --seed S --store sqlite|postgres]`: the kill -9 harness
 * (DUR-01…04) for 200 kills by default. Starts the host as a child process, feeds it starts with idempotency
 * keys and control commands, SIGKILLs it at seeded random moments, restarts it on the same data folder (and,
 * with `--store postgres`, the same PostgreSQL database: `YUKTA_TEST_PG_URL`, else a throwaway server of
 * Debian's binaries with its default, durable settings) and prints the tallies. Every "must be 0" tally
 * above 0 fails the run (exit code 1).
 */
import { parseArgs } from 'node:util';
import { startPostgresCluster, type PostgresCluster } from '../engine/test-support/postgres-cluster';
import { runCrashSoak } from '../main/test-support/crash-soak';

const { values } = parseArgs({
  options: { iterations: { type: 'string' }, seed: { type: 'string' }, quiet: { type: 'boolean' }, store: { type: 'string' } },
  strict: true,
});
const iterations = Number(values.iterations ?? 200);
const seed = Number(values.seed ?? 20261130);
const store = values.store ?? 'sqlite';
if (!Number.isInteger(iterations) || iterations < 1) throw new Error(`--iterations must be a positive integer, not "${values.iterations}"`);
if (!Number.isInteger(seed)) throw new Error(`--seed must be an integer, not "${values.seed}"`);
if (store !== 'sqlite' && store !== 'postgres') throw new Error(`--store must be sqlite or postgres, not "${store}"`);

let cluster: PostgresCluster | null = null;
if (store === 'postgres' && !process.env.YUKTA_TEST_PG_URL) cluster = await startPostgresCluster();
const postgresUrl = process.env.YUKTA_TEST_PG_URL ?? cluster?.url;
let t;
try {
  t = await runCrashSoak({ iterations, seed, store, ...(postgresUrl ? { postgresUrl } : {}), log: values.quiet ? undefined : (line) => console.log(line) });
} finally {
  await cluster?.stop();
}
const mustBeZero = {
  lost: t.lost,
  duplicated: t.duplicated,
  leftRunning: t.leftRunning,
  resumedTwice: t.resumedTwice,
  reexecuted: t.reexecuted,
  integrityFailures: t.integrityFailures,
};
console.log(`\nsoak-crash (${store}): ${t.iterations} kill -9 (seed ${t.seed}) in ${(t.durationMs / 1000).toFixed(1)} s, mean boot ${t.meanBootMs} ms`);
console.log(
  `  starts acknowledged ${t.acknowledged}, unacknowledged (killed mid-request) ${t.unacknowledged}, keys re-sent ${t.keysResent}, commands ${t.commands}`,
);
console.log(
  `  runs checked after recovery ${t.runsChecked} (ABORTED by the kill ${t.abortedByKill}), resumed ${t.resumed} (end-marked nodes skipped ${t.markedNodesSkipped}), integrity checks ${t.integrityChecks}`,
);
console.log(
  `  must be 0: ${Object.entries(mustBeZero)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ')}`,
);
if (Object.values(mustBeZero).some((v) => v !== 0)) process.exit(1);
