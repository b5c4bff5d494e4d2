import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../engine/index';
import { StudioHost } from '../host/studio-host';
import { createHttpServer, type StudioHttpServer } from './http-server';

const LOCAL = { host: '127.0.0.1:4310' };
const open: Array<{ host: StudioHost; server: StudioHttpServer }> = [];

afterEach(async () => {
  for (const { host, server } of open.splice(0)) {
    await server.close();
    await host.close();
  }
});

type Body = Record<string, unknown> & { error?: Record<string, unknown> };

async function serve() {
  const host = new StudioHost({ engine: { clock: new ManualClock(0), scheduler: { limits: { shutdownTimeoutMs: 0 } } } });
  const server = await createHttpServer({ host, resolveCaller: () => ({ actor: 'key:test', role: 'ADMIN' }) });
  open.push({ host, server });
  const call = async (method: 'GET' | 'POST', url: string, payload?: Record<string, unknown>) => {
    const res = await server.app.inject({ method, url, headers: LOCAL, ...(payload ? { payload } : {}) });
    return { status: res.statusCode, body: res.json() as Body };
  };
  const settle = async () => {
    for (let i = 0; i < 20; i++) await new Promise<void>((resolve) => setImmediate(resolve));
  };
  return { host, call, settle };
}

const definition = {
  workflowId: 'debug',
  nodes: [
    { nodeId: 't', type: 'API_TRIGGER' },
    { nodeId: 's', type: 'SPLIT', config: { path: 'payload.items' } },
    { nodeId: 'x', type: 'TRANSFORM' },
    { nodeId: 'o', type: 'RESULT_TERMINAL' },
  ],
  edges: [
    { source: 't', target: 's' },
    { source: 's', target: 'x' },
    { source: 'x', target: 'o' },
  ],
};

describe('STU-04 debugger operations over REST', () => {
  it('POST /api/workflow/start with debug sets a breakpoint before the first message; a bad path is named', async () => {
    const { host, call, settle } = await serve();
    const save = await call('POST', '/api/workflows', { definition });
    expect(save.status, JSON.stringify(save.body)).toBe(200);
    const items = [{ n: 1 }, { n: 2 }, { n: 3 }];
    const started = await call('POST', '/api/workflow/start', {
      workflowId: 'debug',
      payload: { items },
      debug: { breakpoints: [{ nodeId: 'x', path: 'payload.n', equals: '2' }] },
    });
    expect(started.status).toBe(200);
    const id = started.body.executionId as string;
    await settle();
    const state = await call('GET', `/api/executions/${id}/control`);
    const x = (state.body.nodes as Array<{ nodeId: string; held: { payload: unknown } | null; breakpoint: unknown }>).find((n) => n.nodeId === 'x')!;
    expect(x).toMatchObject({ breakpoint: { path: 'payload.n', equals: '2' }, held: { payload: { n: 2 } } });
    await call('POST', `/api/executions/${id}/control`, { command: { type: 'ResumeNode', nodeId: 'x' } });
    expect(await host.engine.waitForRun(id)).toBe('SUCCESS');
    const bad = await call('POST', '/api/workflow/start', {
      workflowId: 'debug',
      payload: { items },
      debug: { breakpoints: [{ nodeId: 'x', path: 'body.n', equals: '2' }] },
    });
    expect(bad).toMatchObject({ status: 400, body: { error: { code: 'BAD_INPUT', path: 'debug.breakpoints.0.path' } } });
  });

  it('GET /api/executions/{id}/nodes/{node}/recorded pages a node messages; GET /api/executions/{id}/recorded summarises every node', async () => {
    const { host, call } = await serve();
    await call('POST', '/api/workflows', { definition });
    const id = (await call('POST', '/api/workflow/start', { workflowId: 'debug', payload: { items: [{ n: 1 }, { n: 2 }] } })).body.executionId as string;
    expect(await host.engine.waitForRun(id)).toBe('SUCCESS');
    const node = await call('GET', `/api/executions/${id}/nodes/x/recorded?offset=1&limit=5`);
    expect(node).toMatchObject({
      status: 200,
      body: { nodeId: 'x', outputs: { total: 2, end: 'SUCCESS', messages: [{ index: 1, payload: { n: 2 } }] }, inputs: [{ from: 's', port: 'out', total: 2 }] },
    });
    const summary = await call('GET', `/api/executions/${id}/recorded`);
    expect((summary.body.nodes as Array<{ nodeId: string; outputs: number }>).map((n) => [n.nodeId, n.outputs])).toEqual([
      ['t', 1],
      ['s', 2],
      ['x', 2],
      ['o', 0],
    ]);
    expect((await call('GET', '/api/executions/nope/recorded')).status).toBe(404);
  });
});
