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

export default async function createAdapter() {
  const Empty = z.object({}).passthrough();
  let want = 0;
  let arrived = 0;
  let expectedK = 0;
  let errors = 0;
  let done = null;

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
      if (message.payload.k !== expectedK) errors++;
      if (++arrived === want && done) done();
    },
  });

  const engine = new Engine({ plugins: [...builtinPlugins(), source, stage, sink], freezeMessages: false });

  const run = async (n, m) => {
    want = m;
    arrived = 0;
    expectedK = n;
    const reached = new Promise((resolve) => (done = resolve));
    const { executionId } = await engine.startRun({ session: 'anchors', workflowId: `chain-${n}`, payload: { count: m } });
    await reached;
    const status = await engine.waitForRun(executionId);
    if (status !== 'SUCCESS') errors++;
  };

  return {
    name: 'yukta-engine',
    async setup({ chainLengths }) {
      for (const n of chainLengths) {
        const nodes = [{ nodeId: 'src', type: 'ANCHOR_SOURCE' }];
        for (let k = 1; k <= n; k++) nodes.push({ nodeId: `s${k}`, type: 'ANCHOR_STAGE', config: { k } });
        nodes.push({ nodeId: 'sink', type: 'ANCHOR_SINK' });
        const edges = nodes.slice(1).map((node, i) => ({ source: nodes[i].nodeId, target: node.nodeId }));
        await engine.saveWorkflow('anchors', { workflowId: `chain-${n}`, nodes, edges });
      }
    },
    burst: (n, m) => run(n, m),
    one: (n) => run(n, 1),
    errors: () => errors,
    async teardown() {
      await engine.shutdown();
    },
  };
}
