// bench/worker-stream: what running a node on a remote worker costs (SCL-01), against the same node local, in
// the same process run. One host (memory store) with the workers' listener on loopback and one `yukta worker`
// child process; per round, one run of trigger → SPLIT of `--messages` items → TRANSFORM → RESULT_TERMINAL:
//   - ours: the TRANSFORM placed on the worker (`engine.placement`): every message is one remote attempt
//     (START, INPUT, COMPLETE out; OUTPUT, COMPLETE back), one at a time, as the node wrapper calls its plugin;
//   - baseline: the same TRANSFORM local.
// Also measured: the attempt round trip alone (START of a one-message stream to its COMPLETE, `--attempts`
// sequential ones, p50 and p99: the set-up of an attempt plus one message), and one stream of all the messages
// (the protocol pipelined within its window of credit: what the wire can do when inputs do not wait for outputs).
// Cases alternate which goes first; ratios per round, then the median. Target: ≤ 50 µs per message remote;
// attempt set-up ≤ 1 ms.
// Run: npm run bench:worker-stream [-- --messages 100000 --rounds 3 --attempts 2000]
import { loadavg } from 'node:os';
import { killAll, startWorker, startWorkerHost } from '../main/test-support/worker-harness';
import { argNumber } from './lib';

const MESSAGES = argNumber('messages', 100_000);
const ROUNDS = argNumber('rounds', 3);
const ATTEMPTS = argNumber('attempts', 2000);
const PORT = 4596;

const host = await startWorkerHost({ port: PORT });
const worker = startWorker({ urls: [host.url], name: 'bench', pool: 'bench', slots: 4 });
await worker.registered();
const engine = host.host.engine;

function workflow(workflowId: string, placed: boolean) {
  const engineConfig = placed ? { engine: { placement: { pool: 'bench' } } } : {};
  return {
    workflowId,
    nodes: [
      { nodeId: 't', type: 'API_TRIGGER' },
      { nodeId: 'split', type: 'SPLIT', config: { path: 'payload.items' } },
      { nodeId: 'x', type: 'TRANSFORM', config: { set: { doubled: '${payload.n:int}' }, ...engineConfig } },
      { nodeId: 'out', type: 'RESULT_TERMINAL' },
    ],
    edges: [
      { source: 't', target: 'split' },
      { source: 'split', target: 'x' },
      { source: 'x', target: 'out' },
    ],
  };
}
await engine.saveWorkflow('default', workflow('remote', true));
await engine.saveWorkflow('default', workflow('local', false));
const items = Array.from({ length: MESSAGES }, (_, n) => ({ n }));

/** µs per message of one run of `workflowId`. */
async function perMessage(workflowId: string): Promise<number> {
  const t0 = process.hrtime.bigint();
  const { executionId } = await engine.startRun({ session: 'default', workflowId, payload: { items } });
  const status = await engine.waitForRun(executionId);
  const us = Number(process.hrtime.bigint() - t0) / 1e3 / MESSAGES;
  const received = engine.getRun(executionId).nodes.find((n) => n.nodeId === 'out')!.counts.received;
  if (status !== 'SUCCESS' || received !== MESSAGES) throw new Error(`${workflowId}: ${status}, ${received} of ${MESSAGES} arrived`);
  return us;
}

const START = {
  type: 'TRANSFORM',
  config: { set: { doubled: '${payload.n:int}' } },
  executionId: 'bench',
  session: 'default',
  workflowId: 'bench',
  nodeId: 'x',
  attempt: 1,
};
const hooks = { heartbeat: () => undefined, log: () => undefined, ended: () => undefined };

/** One stream on the worker with `inputs`, read to its end; µs it took. */
async function stream(inputs: number): Promise<number> {
  const connected = engine.workers.connected[0]!;
  const messages = Array.from({ length: inputs }, (_, n) => ({ id: `m${n}`, payload: { n }, metadata: {}, headers: {} }));
  const t0 = process.hrtime.bigint();
  const attempt = connected.open(START, messages, hooks, new AbortController().signal, Date.now());
  let outputs = 0;
  for await (const _ of attempt) outputs++;
  if (outputs !== inputs) throw new Error(`stream gave ${outputs} of ${inputs}`);
  return Number(process.hrtime.bigint() - t0) / 1e3;
}

/** One-message attempts one after another: the median, the 99th percentile and the mean (which a loaded box's tail moves). */
async function attemptRoundTrips(): Promise<{ p50: number; p99: number; mean: number }> {
  const times: number[] = [];
  for (let i = 0; i < ATTEMPTS; i++) times.push(await stream(1));
  const mean = times.reduce((a, b) => a + b, 0) / times.length;
  times.sort((a, b) => a - b);
  return { p50: times[Math.floor(times.length / 2)]!, p99: times[Math.floor(times.length * 0.99)]!, mean };
}

console.log(
  `worker-stream: ${MESSAGES.toLocaleString('en-US')} messages per case per round; load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
await perMessage('remote'); // warm-up, both paths
await perMessage('local');
await attemptRoundTrips();
const ratios: number[] = [];
const remotes: number[] = [];
for (let round = 1; round <= ROUNDS; round++) {
  const remoteFirst = round % 2 === 1;
  const a = await perMessage(remoteFirst ? 'remote' : 'local');
  const b = await perMessage(remoteFirst ? 'local' : 'remote');
  const [remote, local] = remoteFirst ? [a, b] : [b, a];
  const { p50, p99, mean } = await attemptRoundTrips();
  const pipelined = (await stream(MESSAGES)) / MESSAGES;
  ratios.push(remote / local);
  remotes.push(remote);
  console.log(
    `round ${round}: remote ${remote.toFixed(1)} µs/msg, local ${local.toFixed(2)} µs/msg, ratio remote/local ${(remote / local).toFixed(1)}×; ` +
      `attempt round trip p50 ${p50.toFixed(0)} µs, p99 ${p99.toFixed(0)} µs, mean ${mean.toFixed(0)} µs; one pipelined stream ${pipelined.toFixed(1)} µs/msg`,
  );
}
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
console.log(`median: remote ${median(remotes).toFixed(1)} µs per message; ratio remote/local ${median(ratios).toFixed(1)}×`);
await killAll([worker]);
await host.close();
