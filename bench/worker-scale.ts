// bench/worker-scale: throughput of a sleep-bound node as workers are added (SCL-01), against one worker in the
// same process run. One host (memory store) with the workers' listener on loopback and seven `yukta worker`
// children with one slot each: pool n1 has 1 worker, n2 has 2, n4 has 4. Per case, `--runs` concurrent runs of
// trigger → SPLIT of `--per-run` items → DELAY of `--delay-ms` placed on the case's pool → RESULT_TERMINAL;
// every attempt waits for a free slot of its pool, so throughput is bounded by the pool's slots.
// The baseline is the one-worker pool; target: N workers give ≥ 0.9 × N its throughput. Cases alternate order
// over `--rounds`; ratios per round, then the median.
// Run: npm run bench:worker-scale [-- --runs 8 --per-run 25 --delay-ms 20 --rounds 3]
import { loadavg } from 'node:os';
import { killAll, startWorker, startWorkerHost, type WorkerChild } from '../main/test-support/worker-harness';
import { argNumber } from './lib';

const RUNS = argNumber('runs', 8);
const PER_RUN = argNumber('per-run', 25);
const DELAY_MS = argNumber('delay-ms', 20);
const ROUNDS = argNumber('rounds', 3);
const PORT = 4597;
const POOLS = [
  { pool: 'n1', workers: 1 },
  { pool: 'n2', workers: 2 },
  { pool: 'n4', workers: 4 },
];

const host = await startWorkerHost({ port: PORT });
const workers: WorkerChild[] = POOLS.flatMap(({ pool, workers: n }) =>
  Array.from({ length: n }, (_, i) => startWorker({ urls: [host.url], name: `${pool}-${i}`, pool, slots: 1, allow: ['DELAY'] })),
);
await Promise.all(workers.map((w) => w.registered()));
const engine = host.host.engine;
for (const { pool } of POOLS) {
  await engine.saveWorkflow('default', {
    workflowId: pool,
    nodes: [
      { nodeId: 't', type: 'API_TRIGGER' },
      { nodeId: 'split', type: 'SPLIT', config: { path: 'payload.items' } },
      { nodeId: 'sleep', type: 'DELAY', config: { ms: DELAY_MS, engine: { placement: { pool } } } },
      { nodeId: 'out', type: 'RESULT_TERMINAL' },
    ],
    edges: [
      { source: 't', target: 'split' },
      { source: 'split', target: 'sleep' },
      { source: 'sleep', target: 'out' },
    ],
  });
}
const items = Array.from({ length: PER_RUN }, (_, i) => ({ i }));

/** Messages per second through the pool's DELAY node, `RUNS` runs at once. */
async function throughput(pool: string): Promise<number> {
  const t0 = process.hrtime.bigint();
  const ids = await Promise.all(
    Array.from({ length: RUNS }, async () => (await engine.startRun({ session: 'default', workflowId: pool, payload: { items } })).executionId),
  );
  for (const id of ids) {
    const status = await engine.waitForRun(id);
    if (status !== 'SUCCESS') throw new Error(`${pool}: a run ended ${status}`);
  }
  return (RUNS * PER_RUN) / (Number(process.hrtime.bigint() - t0) / 1e9);
}

console.log(
  `worker-scale: ${RUNS} runs × ${PER_RUN} messages of a ${DELAY_MS} ms remote DELAY per case; one slot per worker; load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
for (const { pool } of POOLS) await throughput(pool); // warm-up
const ratios: Record<string, number[]> = { n2: [], n4: [] };
for (let round = 1; round <= ROUNDS; round++) {
  const order = round % 2 === 1 ? POOLS : [...POOLS].reverse();
  const rate: Record<string, number> = {};
  for (const { pool } of order) rate[pool] = await throughput(pool);
  ratios.n2!.push(rate.n2! / rate.n1!);
  ratios.n4!.push(rate.n4! / rate.n1!);
  console.log(
    `round ${round}: 1 worker ${rate.n1!.toFixed(1)} msg/s, 2 workers ${rate.n2!.toFixed(1)} msg/s (${(rate.n2! / rate.n1!).toFixed(2)}× = ${(rate.n2! / rate.n1! / 2).toFixed(2)} × 2), 4 workers ${rate.n4!.toFixed(1)} msg/s (${(rate.n4! / rate.n1!).toFixed(2)}× = ${(rate.n4! / rate.n1! / 4).toFixed(2)} × 4)`,
  );
}
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
console.log(`median: 2 workers ${median(ratios.n2!).toFixed(2)}× one worker (target ≥ 1.8), 4 workers ${median(ratios.n4!).toFixed(2)}× (target ≥ 3.6)`);
await killAll(workers);
await host.close();
