// bench/output-limits: what the SEC-03 output check (nesting depth + size, once per output where it leaves
// a plugin) costs per message, beside two baselines in the same run: one engine hop of a node that makes a
// new payload (what the check rides on; it includes one check), and JSON.stringify of the same payload
// (what a naive check would cost). Check and stringify are timed on payloads just made, as in the engine.
// Prints, per round, µs per message and the ratios, then the medians.
// Run: npx tsx bench/output-limits.ts [-- --messages 20000 --rounds 5]
import { z } from 'zod';
import { Engine, builtinPlugins, definePlugin, type Plugin } from '../engine/index';
import { DEFAULT_SECURITY_SETTINGS } from '../engine/security/security-settings';
import { checkNodeOutput, messageJsonLimits } from '../engine/security/message-size';
import { argNumber } from './lib';

const M = argNumber('messages', 20_000);
const ROUNDS = argNumber('rounds', 5);
const HOPS = 4;
const Empty = z.strictObject({});

/** Payload shapes: a few fields; an order of ~1 KiB; a 20 KiB document 6 levels deep. */
const SHAPES: Record<string, (i: number) => Record<string, unknown>> = {
  small: (i) => ({ i, name: 'Ada', ok: true }),
  order: (i) => ({ id: `o-${i}`, customer: { name: 'Ada Lovelace', email: 'ada@example.org', address: { street: '12 Analytical Way', city: 'London' } }, lines: Array.from({ length: 8 }, (_, k) => ({ sku: `sku-${k}`, qty: k + 1, price: 9.99 })), note: 'x'.repeat(200) }),
  document: (i) => ({ i, sections: Array.from({ length: 20 }, (_, s) => ({ title: `section ${s}`, body: { paragraphs: Array.from({ length: 5 }, (_, p) => ({ text: 'lorem ipsum '.repeat(15), meta: { p, s } })) } })) }),
};

let shape = SHAPES.small!;
let sinkCount = 0;
const burst = definePlugin({
  type: 'BENCH_BURST', kind: 'trigger', title: 'Burst', description: '', configSchema: z.strictObject({ count: z.number() }), defaultConfig: { count: 1 }, outputs: ['out'],
  *process(_m, config) {
    for (let i = 0; i < config.count; i++) yield { payload: shape(i) };
  },
});
/** A new payload per message (like TRANSFORM), so the check runs at every hop. */
const stamp = definePlugin({
  type: 'BENCH_STAMP', kind: 'processor', title: 'Stamp', description: '', configSchema: Empty, defaultConfig: {}, outputs: ['out'],
  process(m) {
    return [{ payload: { ...(m.payload as Record<string, unknown>), hop: 1 } }];
  },
});
const count = definePlugin({
  type: 'BENCH_COUNT', kind: 'processor', title: 'Count', description: '', configSchema: Empty, defaultConfig: {}, outputs: ['out'],
  process() {
    sinkCount++;
  },
});

const engine = new Engine({ plugins: [...builtinPlugins(), burst, stamp, count] as Array<Plugin<never>>, freezeMessages: false });

async function saveChain(): Promise<void> {
  const nodes = [{ nodeId: 'src', type: 'BENCH_BURST', config: { count: M } as never }];
  const edges: Array<{ source: string; target: string }> = [];
  let prev = 'src';
  for (let i = 1; i <= HOPS; i++) {
    nodes.push({ nodeId: `n${i}`, type: 'BENCH_STAMP', config: {} as never });
    edges.push({ source: prev, target: `n${i}` });
    prev = `n${i}`;
  }
  nodes.push({ nodeId: 'sink', type: 'BENCH_COUNT', config: {} as never });
  edges.push({ source: prev, target: 'sink' });
  await engine.saveWorkflow('bench', { workflowId: 'stamp-chain', nodes, edges });
}

/** µs per message per hop of the chain (the engine, check included). */
async function hopMicros(): Promise<number> {
  sinkCount = 0;
  const t0 = process.hrtime.bigint();
  const { executionId } = await engine.startRun({ session: 'bench', workflowId: 'stamp-chain', payload: {} });
  const status = await engine.waitForRun(executionId);
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (status !== 'SUCCESS' || sinkCount !== M) throw new Error(`lost messages: ${status}, ${sinkCount}/${M}`);
  return (seconds * 1e6) / M / (HOPS + 1); // the trigger's output is checked too
}

/**
 * µs per message of `work` on payloads made as a plugin would, a batch at a time just before they are
 * timed (fresh in the cache, as in the engine, where an output is checked right after it is made).
 */
const BATCH = 500;
function perMessageMicros(work: (payload: unknown) => void): number {
  let ns = 0n;
  for (let from = 0; from < M; from += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, M - from) }, (_, k) => ({ ...shape(from + k), hop: 1 }));
    const t0 = process.hrtime.bigint();
    for (const payload of batch) work(payload);
    ns += process.hrtime.bigint() - t0;
  }
  return Number(ns) / 1e3 / M;
}

const limits = { maxDepth: DEFAULT_SECURITY_SETTINGS.maxDepth, maxMessageBytes: DEFAULT_SECURITY_SETTINGS.maxMessageBytes };
let sink = 0;
const jsonLimits = messageJsonLimits(limits);
const check = (p: unknown): void => checkNodeOutput('n1', p, jsonLimits);
const stringify = (p: unknown): void => void (sink += JSON.stringify(p).length);

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

await saveChain();
console.log(`\n### SEC-03 output check: ${M} messages, ${HOPS} hops that each make a new payload, ${ROUNDS} rounds (max-depth ${limits.maxDepth}, max-message-bytes ${limits.maxMessageBytes})\n`);
console.log('| shape | round | check µs/msg | hop µs/msg | JSON.stringify µs/msg | check / hop | check / stringify |');
console.log('| - | - | - | - | - | - | - |');
const summary: string[] = [];
for (const [name, make] of Object.entries(SHAPES)) {
  shape = make;
  await hopMicros(); // warm-up
  perMessageMicros(check);
  perMessageMicros(stringify);
  const toHop: number[] = [];
  const toStringify: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const hop = await hopMicros();
    const c = perMessageMicros(check);
    const s = perMessageMicros(stringify);
    toHop.push(c / hop);
    toStringify.push(c / s);
    console.log(`| ${name} | ${round} | ${c.toFixed(3)} | ${hop.toFixed(3)} | ${s.toFixed(3)} | ${((100 * c) / hop).toFixed(1)} % | ${(c / s).toFixed(2)}× |`);
  }
  summary.push(`| ${name} | ${(100 * median(toHop)).toFixed(1)} % | ${median(toStringify).toFixed(2)}× |`);
}
console.log('\n| shape | median check / hop | median check / stringify |\n| - | - | - |');
for (const line of summary) console.log(line);
if (sink < 0) console.log(sink); // keeps JSON.stringify's results alive
