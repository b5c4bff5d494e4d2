// bench/anchors-alloc.mjs — what the anchors per-task case allocates, and what of it survives a scavenge,
// in bytes per run (one message through a chain of N stages, the harness's `one(n)`), by allocation site:
//   node --expose-gc [--no-turbo-inlining] bench/anchors-alloc.mjs [--adapter A.mjs] [--n 40] [--runs 4000] [--top 20]
// V8's sampling heap profiler, three passes after a warm-up: everything allocated (objects a scavenge or a
// full GC collected included), what survived at least one scavenge (only the objects a full GC collected
// included: the ones the scavenger copied, usually promoted), and what is still live at the end. A survivor
// is copied once or twice by the scavenger and, once promoted, waits for a full GC: the bytes that matter
// most for the GC share. `--no-turbo-inlining` names the function that allocates rather than its caller.
import { Session } from 'node:inspector/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    adapter: { type: 'string', default: new URL('./anchors-adapter.mjs', import.meta.url).pathname },
    n: { type: 'string', default: '40' },
    runs: { type: 'string', default: '4000' },
    top: { type: 'string', default: '20' },
  },
});
const n = Number(values.n);
const runs = Number(values.runs);
const gc =
  globalThis.gc ??
  (() => {
    throw new Error('run with node --expose-gc');
  });

const adapter = await (await import(pathToFileURL(resolve(values.adapter)).href)).default({ chainLengths: [n] });
await adapter.setup?.({ chainLengths: [n] });
for (let i = 0; i < 3000; i++) await adapter.one(n); // warm-up: JIT, the stage pool, the tracker and archive at their caps
const session = new Session();
session.connect();

for (const [title, major, minor] of [
  ['allocated', true, true],
  ['survived a scavenge', true, false],
  ['live at the end', false, false],
]) {
  gc();
  await session.post('HeapProfiler.startSampling', { samplingInterval: 256, includeObjectsCollectedByMajorGC: major, includeObjectsCollectedByMinorGC: minor });
  for (let i = 0; i < runs; i++) await adapter.one(n);
  const { profile } = await session.post('HeapProfiler.stopSampling');
  report(title, profile);
}
session.disconnect();
await adapter.teardown?.();
if (adapter.errors() !== 0) throw new Error(`${adapter.name}: ${adapter.errors()} wrong or lost messages`);

function report(title, profile) {
  const bySite = new Map();
  let total = 0;
  const visit = (node, caller) => {
    const f = node.callFrame;
    const file = f.url
      ? f.url
          .split('/')
          .pop()
          .replace(/^engine-\d+\.mjs$/, 'engine bundle')
      : '';
    let site = `${f.functionName || '(anonymous)'}${file ? ` (${file}:${f.lineNumber + 1})` : ''}`;
    if (!file && caller) site = `${caller} > ${site}`; // a builtin (Map set, …): name who called it
    total += node.selfSize;
    if (node.selfSize) bySite.set(site, (bySite.get(site) ?? 0) + node.selfSize);
    for (const child of node.children) visit(child, site);
  };
  visit(profile.head, null);
  console.log(`\n${adapter.name}, chain of ${n}, ${runs} runs: ${title}, ${(total / runs).toFixed(0)} bytes per run\n\n| bytes per run | site |\n| -: | - |`);
  for (const [site, bytes] of [...bySite].sort((a, b) => b[1] - a[1]).slice(0, Number(values.top)))
    console.log(`| ${(bytes / runs).toFixed(0)} | \`${site}\` |`);
}
