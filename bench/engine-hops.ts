// bench/engine-hops: M messages through chains of N pass-through nodes on our engine, against a bare
// async-generator chain of the same shape in the same process. Prints msgs/s and the time ratio.
// Run: npm run bench:engine-hops [-- --messages 200000 --runs 3]
import { z } from 'zod';
import { Engine, builtinPlugins, definePlugin, type Plugin } from '../engine/index';
import { argNumber, measure, printTable } from './lib';

const M = argNumber('messages', 200_000);
const RUNS = argNumber('runs', 3);
const Empty = z.strictObject({});

let sinkCount = 0;
const burst = definePlugin({
  type: 'BENCH_BURST',
  kind: 'trigger',
  title: 'Burst',
  description: '',
  configSchema: z.strictObject({ count: z.number() }),
  defaultConfig: { count: 1 },
  outputs: ['out'],
  // A synchronous generator: the engine pulls it only as fast as the chain takes messages.
  *process(_m, config) {
    for (let i = 0; i < config.count; i++) yield { payload: { i } };
  },
});
const pass = definePlugin({
  type: 'BENCH_PASS',
  kind: 'processor',
  title: 'Pass',
  description: '',
  configSchema: Empty,
  defaultConfig: {},
  outputs: ['out'],
  process(m) {
    return [{ payload: m.payload }];
  },
});
// A processor without outputs wired acts as the sink, so no result event is published per message.
const count = definePlugin({
  type: 'BENCH_COUNT',
  kind: 'processor',
  title: 'Count',
  description: '',
  configSchema: Empty,
  defaultConfig: {},
  outputs: ['out'],
  process() {
    sinkCount++;
  },
});

const engine = new Engine({ plugins: [...builtinPlugins(), burst, pass, count] as Array<Plugin<never>>, freezeMessages: false });

async function saveChain(n: number, fanOut: number): Promise<string> {
  const id = `chain-${n}-${fanOut}`;
  const nodes = [{ nodeId: 'src', type: 'BENCH_BURST', config: { count: M } }];
  const edges: Array<{ source: string; target: string }> = [];
  for (let b = 0; b < fanOut; b++) {
    let prev = 'src';
    for (let i = 1; i <= n; i++) {
      const nodeId = `b${b}n${i}`;
      nodes.push({ nodeId, type: 'BENCH_PASS', config: {} as never });
      edges.push({ source: prev, target: nodeId });
      prev = nodeId;
    }
    nodes.push({ nodeId: `sink${b}`, type: 'BENCH_COUNT', config: {} as never });
    edges.push({ source: prev, target: `sink${b}` });
  }
  await engine.saveWorkflow('bench', { workflowId: id, nodes, edges });
  return id;
}

async function runOurs(workflowId: string, expected: number): Promise<void> {
  sinkCount = 0;
  const { executionId } = await engine.startRun({ session: 'bench', workflowId, payload: {} });
  const status = await engine.waitForRun(executionId);
  if (status !== 'SUCCESS' || sinkCount !== expected) throw new Error(`lost messages: ${status}, ${sinkCount}/${expected}`);
}

async function runBaseline(n: number): Promise<void> {
  async function* source() {
    for (let i = 0; i < M; i++) yield { i };
  }
  async function* stage(input: AsyncIterable<unknown>) {
    for await (const m of input) yield m;
  }
  let it: AsyncIterable<unknown> = source();
  for (let i = 0; i < n; i++) it = stage(it);
  let c = 0;
  for await (const _ of it) c++;
  if (c !== M) throw new Error('baseline lost messages');
}

const rows = [];
for (const n of [1, 10, 50]) {
  const id = await saveChain(n, 1);
  const ours = await measure(`ours n=${n}`, M, RUNS, () => runOurs(id, M));
  const baseline = await measure(`async-gen n=${n}`, M, RUNS, () => runBaseline(n));
  rows.push({ label: `${n} node(s), µs per message`, ours, baseline });
  rows.push({ label: `${n} node(s), µs per hop`, ours, baseline, perUnitDivisor: n + 1 });
}
const fanId = await saveChain(1, 4);
const fan = await measure('ours fan-out 4', M, RUNS, () => runOurs(fanId, 4 * M));
const fanBase = await measure('async-gen n=1 ×4', M, RUNS, async () => {
  await Promise.all([runBaseline(1), runBaseline(1), runBaseline(1), runBaseline(1)]);
});
rows.push({ label: 'fan-out of 4 (1 node each)', ours: fan, baseline: fanBase });
printTable(`engine-hops: ${M.toLocaleString('en-US')} messages, median of ${RUNS} runs (Node ${process.version})`, rows);
