// bench/event-loop-lag: event-loop delay (p50/p99/max of a 1 ms timer's lateness) while a 10-node
// flow runs flat out on our engine, against a bare async-generator chain of the same shape in the same
// process, and against the idle loop. Target: p99 < 20 ms while our engine runs.
// Run: npm run bench:event-loop-lag [-- --messages 1000000]
import { z } from 'zod';
import { Engine, builtinPlugins, definePlugin, type Plugin } from '../engine/index';
import { argNumber } from './lib';

const M = argNumber('messages', 1_000_000);
const N = 10;
const Empty = z.strictObject({});

const source = definePlugin({
  type: 'LAG_SOURCE',
  kind: 'trigger',
  title: '',
  description: '',
  configSchema: Empty,
  defaultConfig: {},
  outputs: ['out'],
  *process() {
    for (let i = 0; i < M; i++) yield { payload: { i } };
  },
});
const pass = definePlugin({
  type: 'LAG_PASS',
  kind: 'processor',
  title: '',
  description: '',
  configSchema: Empty,
  defaultConfig: {},
  outputs: ['out'],
  process: (m) => [{ payload: m.payload }],
});
const sink = definePlugin({
  type: 'LAG_SINK',
  kind: 'processor',
  title: '',
  description: '',
  configSchema: Empty,
  defaultConfig: {},
  outputs: ['out'],
  process: () => undefined,
});

/**
 * Lag as a 1 ms timer sees it: how late each tick fires. Unlike monitorEventLoopDelay's histogram this
 * also catches a loop that never turns at all (one huge late tick at the end).
 */
async function withMonitor(body: () => Promise<void>): Promise<{ p50: number; p99: number; max: number; seconds: number }> {
  const lags: number[] = [];
  let expected = performance.now() + 1;
  let running = true;
  const tick = () => {
    const now = performance.now();
    lags.push(Math.max(0, now - expected));
    expected = now + 1;
    if (running) timer = setTimeout(tick, 1);
  };
  let timer = setTimeout(tick, 1);
  const t0 = performance.now();
  await body();
  const seconds = (performance.now() - t0) / 1000;
  await new Promise((resolve) => setTimeout(resolve, 5)); // let a starved timer report its lateness
  running = false;
  clearTimeout(timer);
  lags.sort((a, b) => a - b);
  const at = (q: number) => lags[Math.min(lags.length - 1, Math.floor(q * lags.length))] ?? 0;
  return { p50: at(0.5), p99: at(0.99), max: lags.at(-1) ?? 0, seconds };
}

const engine = new Engine({ plugins: [...builtinPlugins(), source, pass, sink] as Array<Plugin<never>>, freezeMessages: false });
const nodes = [
  { nodeId: 'src', type: 'LAG_SOURCE' },
  ...Array.from({ length: N }, (_, i) => ({ nodeId: `p${i}`, type: 'LAG_PASS' })),
  { nodeId: 'sink', type: 'LAG_SINK' },
];
await engine.saveWorkflow('bench', { workflowId: 'lag', nodes, edges: nodes.slice(1).map((n, i) => ({ source: nodes[i]!.nodeId, target: n.nodeId })) });

const ours = await withMonitor(async () => {
  const { executionId } = await engine.startRun({ session: 'bench', workflowId: 'lag', payload: {} });
  await engine.waitForRun(executionId);
});
const baseline = await withMonitor(async () => {
  async function* src() {
    for (let i = 0; i < M; i++) yield { i };
  }
  async function* stage(input: AsyncIterable<unknown>) {
    for await (const m of input) yield m;
  }
  let it: AsyncIterable<unknown> = src();
  for (let i = 0; i < N; i++) it = stage(it);
  for await (const _ of it);
});
const idle = await withMonitor(() => new Promise((resolve) => setTimeout(resolve, 1000)));

console.log(`\n### event-loop lag: ${M.toLocaleString('en-US')} messages through ${N} pass-through nodes (Node ${process.version})\n`);
console.log('| case | run time s | lag p50 ms | lag p99 ms | lag max ms |');
console.log('| - | - | - | - | - |');
for (const [name, r] of [
  ['ours (engine)', ours],
  ['bare async-generator chain', baseline],
  ['idle loop, 1 s', idle],
] as const) {
  console.log(`| ${name} | ${r.seconds.toFixed(2)} | ${r.p50.toFixed(2)} | ${r.p99.toFixed(2)} | ${r.max.toFixed(2)} |`);
}
console.log(`\nratio p99 ours / idle: ${(ours.p99 / idle.p99).toFixed(2)}×; target p99 < 20 ms: ${ours.p99 < 20 ? 'met' : 'missed'}`);
