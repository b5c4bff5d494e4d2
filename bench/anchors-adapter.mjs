// bench/anchors-adapter.mjs — our engine inside the peer benchmark harness of ../shared/anchors,
// so Node-RED, n8n's engine and ours are measured in the same process run:
//   npm run bench:anchors   (scripts/bench-anchors.mjs passes this file to the harness by absolute path).
// Each chain is N stages that set msg.payload.k = k, then a sink that checks payload.k === N, as the harness requires. burst(n, m) starts one run whose trigger yields m
// messages; one(n) starts one run with one message — so per-task figures include starting a run.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'esbuild';

// Measure the engine as it ships: bundled by esbuild like the app, not through a dev-time TS loader.
// Bundled under the repository (dist/ is ignored by git) so its packages resolve from node_modules.
const root = new URL('..', import.meta.url).pathname;
const outfile = join(root, 'dist', 'bench', `engine-${process.pid}.mjs`);
mkdirSync(join(root, 'dist', 'bench'), { recursive: true });
await build({
  entryPoints: [new URL('../engine/index.ts', import.meta.url).pathname],
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  outfile,
  packages: 'external',
  absWorkingDir: root,
  logLevel: 'error',
});
const { Engine, builtinPlugins, definePlugin } = await import(pathToFileURL(outfile).href);
const { z } = await import('zod');

/** The harness's three node types over one tally: the sink counts arrivals and wrong `k`s into it. */
function anchorPlugins(tally) {
  const Empty = z.object({}).passthrough();
  const source = definePlugin({
    type: 'ANCHOR_SOURCE',
    kind: 'trigger',
    title: '',
    description: '',
    configSchema: Empty,
    defaultConfig: {},
    outputs: ['out'],
    *process(message) {
      const count = message.payload.count;
      for (let i = 0; i < count; i++) yield { payload: { i } };
    },
  });
  // The harness's stage: set payload.k in place (a chain, so no other child shares the message).
  const stage = definePlugin({
    type: 'ANCHOR_STAGE',
    kind: 'processor',
    title: '',
    description: '',
    configSchema: z.object({ k: z.number() }),
    defaultConfig: { k: 1 },
    outputs: ['out'],
    process(message, config) {
      message.payload.k = config.k;
      return [message];
    },
  });
  const sink = definePlugin({
    type: 'ANCHOR_SINK',
    kind: 'processor',
    title: '',
    description: '',
    configSchema: Empty,
    defaultConfig: {},
    outputs: ['out'],
    process(message) {
      if (message.payload.k !== tally.expectedK) tally.errors++;
      if (++tally.arrived === tally.want && tally.done) tally.done();
    },
  });
  return [source, stage, sink];
}

/** The workflow of a chain of `n` stages: source → s1 … sn → sink. */
function chainWorkflow(n) {
  const nodes = [{ nodeId: 'src', type: 'ANCHOR_SOURCE' }];
  for (let k = 1; k <= n; k++) nodes.push({ nodeId: `s${k}`, type: 'ANCHOR_STAGE', config: { k } });
  nodes.push({ nodeId: 'sink', type: 'ANCHOR_SINK' });
  const edges = nodes.slice(1).map((node, i) => ({ source: nodes[i].nodeId, target: node.nodeId }));
  return { workflowId: `chain-${n}`, nodes, edges };
}

export default async function createAdapter() {
  const tally = { want: 0, arrived: 0, expectedK: 0, errors: 0, done: null };
  const engine = new Engine({ plugins: [...builtinPlugins(), ...anchorPlugins(tally)], freezeMessages: false });

  const run = async (n, m) => {
    tally.want = m;
    tally.arrived = 0;
    tally.expectedK = n;
    const reached = new Promise((resolve) => (tally.done = resolve));
    const { executionId } = await engine.startRun({ session: 'anchors', workflowId: `chain-${n}`, payload: { count: m } });
    await reached;
    const status = await engine.waitForRun(executionId);
    if (status !== 'SUCCESS') tally.errors++;
  };

  return {
    name: 'yukta-engine',
    async setup({ chainLengths }) {
      for (const n of chainLengths) await engine.saveWorkflow('anchors', chainWorkflow(n));
    },
    burst: (n, m) => run(n, m),
    one: (n) => run(n, 1),
    errors: () => tally.errors,
    async teardown() {
      await engine.shutdown();
    },
  };
}
