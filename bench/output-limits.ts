// bench/output-limits: what the SEC-03 output check (nesting depth + size, once per output where it leaves
// a plugin) costs per message. In the engine: a chain of nodes that each make a new payload (checked at
// every hop) against the same chain whose nodes hand their input's payload on after writing to it (the
// check is skipped: same object), in the same run. Alone: the check against JSON.stringify of the same
// payload (what a naive check would cost). Prints, per round, µs per message and the ratios, then medians.
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
  order: (i) => ({
    id: `o-${i}`,
    customer: { name: 'Ada Lovelace', email: 'ada@example.org', address: { street: '12 Analytical Way', city: 'London' } },
    lines: Array.from({ length: 8 }, (_, k) => ({ sku: `sku-${k}`, qty: k + 1, price: 9.99 })),
    note: 'x'.repeat(200),
  }),
  document: (i) => ({
    i,
    sections: Array.from({ length: 20 }, (_, s) => ({
      title: `section ${s}`,
      body: { paragraphs: Array.from({ length: 5 }, (_, p) => ({ text: 'lorem ipsum '.repeat(15), meta: { p, s } })) },
    })),
  }),
};

let shape = SHAPES.small!;
let sinkCount = 0;
const burst = definePlugin({
  type: 'BENCH_BURST',
  kind: 'trigger',
  title: 'Burst',
  description: '',
  configSchema: z.strictObject({ count: z.number() }),
  defaultConfig: { count: 1 },
  outputs: ['out'],
  *process(_m, config) {
    for (let i = 0; i < config.count; i++) yield { payload: shape(i) };
  },
});
/** A new payload per message (like TRANSFORM), so the check runs at every hop. */
const stamp = definePlugin({
  type: 'BENCH_STAMP',
  kind: 'processor',
  title: 'Stamp',
  description: '',
  configSchema: Empty,
  defaultConfig: {},
  outputs: ['out'],
  process(m) {
    return [{ payload: { ...(m.payload as Record<string, unknown>), hop: 1 } }];
  },
});
/** The baseline: the same field written into the input's payload, which goes on as it is (not checked again). */
const mutate = definePlugin({
  type: 'BENCH_MUTATE',
  kind: 'processor',
  title: 'Mutate',
  description: '',
  configSchema: Empty,
  defaultConfig: {},
  outputs: ['out'],
  process(m) {
    (m.payload as Record<string, unknown>).hop = 1;
    return [{ payload: m.payload }];
  },
});
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

const engine = new Engine({ plugins: [...builtinPlugins(), burst, stamp, mutate, count] as Array<Plugin<never>>, freezeMessages: false });

async function saveChain(workflowId: string, type: string): Promise<void> {
  const nodes = [{ nodeId: 'src', type: 'BENCH_BURST', config: { count: M } as never }];
  const edges: Array<{ source: string; target: string }> = [];
  let prev = 'src';
  for (let i = 1; i <= HOPS; i++) {
    nodes.push({ nodeId: `n${i}`, type, config: {} as never });
    edges.push({ source: prev, target: `n${i}` });
    prev = `n${i}`;
  }
  nodes.push({ nodeId: 'sink', type: 'BENCH_COUNT', config: {} as never });
  edges.push({ source: prev, target: 'sink' });
  await engine.saveWorkflow('bench', { workflowId, nodes, edges });
}

/** µs per message per hop of a chain. */
async function hopMicros(workflowId: string): Promise<number> {
  sinkCount = 0;
  const t0 = process.hrtime.bigint();
  const { executionId } = await engine.startRun({ session: 'bench', workflowId, payload: {} });
  const status = await engine.waitForRun(executionId);
  const seconds = Number(process.hrtime.bigint() - t0) / 1e9;
  if (status !== 'SUCCESS' || sinkCount !== M) throw new Error(`lost messages: ${status}, ${sinkCount}/${M}`);
  return (seconds * 1e6) / M / HOPS;
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

await saveChain('checked', 'BENCH_STAMP');
await saveChain('unchecked', 'BENCH_MUTATE');
console.log(
  `\n### SEC-03 output check: ${M} messages, ${HOPS} hops, ${ROUNDS} rounds (max-depth ${limits.maxDepth}, max-message-bytes ${limits.maxMessageBytes})\n`,
);
console.log(
  '| shape | round | hop, new payload (checked) µs | hop, same payload (not checked) µs | checked / not | check alone µs | JSON.stringify µs | check / stringify |',
);
console.log('| - | - | - | - | - | - | - | - |');
const summary: string[] = [];
for (const [name, make] of Object.entries(SHAPES)) {
  shape = make;
  await hopMicros('checked'); // warm-up
  await hopMicros('unchecked');
  perMessageMicros(check);
  perMessageMicros(stringify);
  const hops: number[] = [];
  const toStringify: number[] = [];
  for (let round = 1; round <= ROUNDS; round++) {
    const checked = await hopMicros('checked');
    const unchecked = await hopMicros('unchecked');
    const c = perMessageMicros(check);
    const s = perMessageMicros(stringify);
    hops.push(checked / unchecked);
    toStringify.push(c / s);
    console.log(
      `| ${name} | ${round} | ${checked.toFixed(3)} | ${unchecked.toFixed(3)} | ${(checked / unchecked).toFixed(2)}× | ${c.toFixed(3)} | ${s.toFixed(3)} | ${(c / s).toFixed(2)}× |`,
    );
  }
  summary.push(`| ${name} | ${median(hops).toFixed(2)}× | ${median(toStringify).toFixed(2)}× |`);
}
console.log('\n| shape | median hop checked / not checked | median check / stringify |\n| - | - | - |');
for (const line of summary) console.log(line);
if (sink < 0) console.log(sink); // keeps JSON.stringify's results alive
