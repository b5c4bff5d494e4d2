// bench/anchors-profile.mjs — where the anchors per-task case spends its time: one run per message
// through a chain of N stages (the harness's `one(n)`), with the GC share and a CPU profile's top entries.
//   node --expose-gc bench/anchors-profile.mjs [--adapter A.mjs [--adapter B.mjs]] [--n 40] [--reps 5000] [--rounds 5]
// Top entries of a CPU profile by self time (an in-process inspector would distort it, so take it with
// `node --expose-gc --cpu-prof --cpu-prof-dir=DIR bench/anchors-profile.mjs ...`):
//   node bench/anchors-profile.mjs --top-of DIR/<file>.cpuprofile [--top 12]
// With two adapters (e.g. an older checkout's bench/anchors-adapter.mjs, renamed, then this one) the rounds
// alternate and the ratio last/first is taken per round, then its median. GC share is measured twice: the
// V8 GC pauses seen by a PerformanceObserver (what --trace-gc prints) over the wall time of the timed loop,
// and the "(garbage collector)" samples of the CPU profile. CPU µs per task is the process's user + system
// time over the loop (GC helper threads included): steadier than wall time on a shared, loaded machine.
import { readFileSync } from 'node:fs';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { loadavg } from 'node:os';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    adapter: { type: 'string', multiple: true, default: [new URL('./anchors-adapter.mjs', import.meta.url).pathname] },
    n: { type: 'string', default: '40' },
    reps: { type: 'string', default: '5000' },
    rounds: { type: 'string', default: '5' },
    top: { type: 'string', default: '12' },
    'top-of': { type: 'string' },
  },
});
if (values['top-of'] !== undefined) {
  printTop(values['top-of'], JSON.parse(readFileSync(values['top-of'], 'utf8')));
  process.exit(0);
}
const n = Number(values.n);
const reps = Number(values.reps);
const rounds = Number(values.rounds);
const settle = () => new Promise((done) => setImmediate(done));
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

const adapters = [];
for (const path of values.adapter) {
  const adapter = await (await import(pathToFileURL(resolve(path)).href)).default({ chainLengths: [n] });
  await adapter.setup?.({ chainLengths: [n] });
  for (let i = 0; i < 2000; i++) await adapter.one(n); // warm-up: JIT and the prepared workflow's stage pool
  adapters.push({ adapter, perTask: [], cpuPerTask: [], gcShare: [] });
}

let gcMs = 0;
const observer = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcMs += entry.duration;
});
observer.observe({ entryTypes: ['gc'] });

const ratios = [];
for (let r = 0; r < rounds; r++) {
  // The order rotates per round, so neither side always runs first (or right after the other's garbage).
  for (let k = 0; k < adapters.length; k++) {
    const side = adapters[(k + r) % adapters.length];
    globalThis.gc?.();
    await settle(); // let the observer report the forced collection first
    gcMs = 0;
    const cpu0 = process.cpuUsage();
    const t0 = performance.now();
    for (let i = 0; i < reps; i++) await side.adapter.one(n);
    const wall = performance.now() - t0;
    const cpu = process.cpuUsage(cpu0);
    await settle();
    side.perTask.push((wall * 1000) / (reps * n));
    side.cpuPerTask.push((cpu.user + cpu.system) / (reps * n));
    side.gcShare.push(gcMs / wall);
  }
  if (adapters.length > 1) ratios.push(adapters.at(-1).perTask[r] / adapters[0].perTask[r]);
}
observer.disconnect();

console.log(`chain of ${n}, ${reps} runs of one message per round, ${rounds} rounds, load average ${loadavg()[0].toFixed(1)}\n`);
console.log(
  '| engine | µs per task, median (min–max) | CPU µs per task (process, GC threads too) | GC share (V8 GC pauses / wall), median (min–max) |\n| - | -: | -: | -: |',
);
const range = (xs, f) => `${f(median(xs))} (${f(Math.min(...xs))}–${f(Math.max(...xs))})`;
for (const { adapter, perTask, cpuPerTask, gcShare } of adapters) {
  console.log(
    `| ${adapter.name} | ${range(perTask, (x) => x.toFixed(2))} | ${range(cpuPerTask, (x) => x.toFixed(2))} | ${range(gcShare, (x) => (100 * x).toFixed(1) + ' %')} |`,
  );
}
if (ratios.length)
  console.log(
    `\n${adapters.at(-1).adapter.name} / ${adapters[0].adapter.name} per round: ${ratios.map((x) => x.toFixed(2)).join(', ')}; median ${median(ratios).toFixed(2)}×`,
  );

for (const { adapter } of adapters) {
  await adapter.teardown?.();
  if (adapter.errors() !== 0) throw new Error(`${adapter.name}: ${adapter.errors()} wrong or lost messages`);
}

function printTop(name, profile) {
  const selfUs = new Map();
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  let total = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const f = byId.get(profile.samples[i]).callFrame;
    const dt = profile.timeDeltas[i] ?? 0;
    total += dt;
    const file = f.url
      ? f.url
          .split('/')
          .slice(-1)[0]
          .replace(/^engine-\d+\.mjs$/, 'engine bundle')
      : '';
    const key = `${f.functionName || '(anonymous)'}${file ? ` (${file})` : ''}`;
    selfUs.set(key, (selfUs.get(key) ?? 0) + dt);
  }
  const top = [...selfUs.entries()].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top));
  console.log(`\n${name}: CPU profile, top ${top.length} by self time (${(total / 1000).toFixed(0)} ms sampled)\n\n| self % | function |\n| -: | - |`);
  for (const [key, us] of top) console.log(`| ${((100 * us) / total).toFixed(1)} | \`${key}\` |`);
}
