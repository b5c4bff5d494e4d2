// bench/mcp-call: what MCP costs an agent per call (EXT-04), against REST on the same host and server in the
// same process run. One serve-mode HTTP server (memory store, a finished run of a 3-node workflow); per round,
// `--calls` sequential calls of `runs.get` for that run:
//   - ours: the official SDK client's `tools/call` over streamable HTTP at /mcp (one session, reused);
//   - baseline: `fetch` of the REST route `GET /api/executions/{id}` with keep-alive.
// Both reach the same `dispatch`; the difference is the MCP framing (JSON-RPC, SSE response, structured
// content plus its JSON text). Cases alternate which goes first; ratios per round, then the median.
// Run: npm run bench:mcp-call [-- --calls 2000 --rounds 5]
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StudioHost } from '../main/host/studio-host';
import { createHttpServer } from '../main/http/http-server';
import { isolatedAbortFetch } from '../main/mcp/stdio-bridge';
import { argNumber } from './lib';

const CALLS = argNumber('calls', 2000);
const ROUNDS = argNumber('rounds', 5);

const WORKFLOW = {
  workflowId: 'bench',
  nodes: [
    { nodeId: 's', type: 'API_TRIGGER' },
    { nodeId: 't', type: 'TRANSFORM', config: { set: { ok: 'yes' } } },
    { nodeId: 'o', type: 'CONSOLE_TERMINAL' },
  ],
  edges: [
    { source: 's', target: 't' },
    { source: 't', target: 'o' },
  ],
};

async function timed(body: () => Promise<void>): Promise<number> {
  const t0 = process.hrtime.bigint();
  for (let i = 0; i < CALLS; i++) await body();
  return Number(process.hrtime.bigint() - t0) / 1e6 / CALLS; // ms per call
}

const host = new StudioHost();
const server = await createHttpServer({ host, bind: { port: 0 } });
const { url } = await server.listen();
await host.invoke('workflows.save', { definition: WORKFLOW }, { actor: 'bench', role: 'ADMIN' });
const started = await host.invoke('runs.start', { workflowId: 'bench', payload: { n: 1 } }, { actor: 'bench', role: 'ADMIN' });
if (!started.ok) throw new Error(started.error.message);
const { executionId } = started.value as { executionId: string };
await host.engine.waitForRun(executionId);

const client = new Client({ name: 'bench', version: '1.0.0' });
// The bridge's fetch (one abort signal per request), as `yukta mcp --url` uses it.
await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', url), { fetch: isolatedAbortFetch }));
const mcp = async (): Promise<void> => {
  const result = await client.callTool({ name: 'runs.get', arguments: { executionId } });
  if (result.isError) throw new Error('runs.get failed over MCP');
};
const rest = async (): Promise<void> => {
  const response = await fetch(`${url}/api/executions/${executionId}`);
  if (!response.ok) throw new Error(`runs.get failed over REST: ${response.status}`);
  await response.json();
};

await timed(mcp); // warm-up, both paths
await timed(rest);
const ratios: number[] = [];
console.log(`runs.get, ${CALLS} sequential calls per case per round (ms per call)`);
for (let round = 1; round <= ROUNDS; round++) {
  const first = round % 2 === 1;
  const a = first ? await timed(mcp) : await timed(rest);
  const b = first ? await timed(rest) : await timed(mcp);
  const [ours, baseline] = first ? [a, b] : [b, a];
  ratios.push(ours / baseline);
  console.log(`round ${round}: MCP ${ours.toFixed(3)} ms, REST ${baseline.toFixed(3)} ms, ratio MCP/REST ${(ours / baseline).toFixed(2)}×`);
}
ratios.sort((x, y) => x - y);
console.log(`median ratio MCP/REST: ${ratios[Math.floor(ratios.length / 2)]!.toFixed(2)}×`);
await client.close();
await server.close();
await host.close();
