import { afterEach, describe, expect, it } from 'vitest';
import type { StudioEvent } from '../../shared/events/events';
import { parseHostSettings } from '../host/host-settings';
import { StudioHost } from '../host/studio-host';
import { createHttpServer, type StudioHttpServer } from './http-server';
import { helloWorkflow } from './test-workflows';

const KEYS = {
  'yukta.api-keys': [
    { name: 'prom', key: 'viewer-key-0123456789', role: 'VIEWER' },
    { name: 'scoped', key: 'scoped-key-0123456789', role: 'ADMIN', sessions: ['default'] },
  ],
};

const open: Array<{ host: StudioHost; server: StudioHttpServer }> = [];

afterEach(async () => {
  for (const { host, server } of open.splice(0)) {
    await server.close();
    await host.close();
  }
});

/** A real server on a free port; with `keys`, API keys are required. */
async function serve(settings: Record<string, unknown> = {}) {
  const host = new StudioHost({ settings: parseHostSettings(settings), env: {} });
  const server = await createHttpServer({ host, bind: { port: 0 } });
  open.push({ host, server });
  const base = (await server.listen()).url;
  return { host, base };
}

async function runHello(base: string, headers: Record<string, string> = {}): Promise<string> {
  const h = { 'content-type': 'application/json', ...headers };
  expect((await fetch(`${base}/api/workflows`, { method: 'POST', headers: h, body: JSON.stringify({ definition: helloWorkflow() }) })).status).toBe(200);
  const started = await fetch(`${base}/api/workflow/start`, {
    method: 'POST',
    headers: h,
    body: JSON.stringify({ workflowId: 'hello', payload: { name: 'Ada' } }),
  });
  return ((await started.json()) as { executionId: string }).executionId;
}

describe('OBS-04 metrics over HTTP', () => {
  it('GET /metrics answers the Prometheus text format with the run counted by status', async () => {
    const { host, base } = await serve();
    const id = await runHello(base);
    expect(await host.engine.waitForRun(id)).toBe('SUCCESS');
    const res = await fetch(`${base}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/plain; version=0.0.4; charset=utf-8');
    const text = await res.text();
    expect(text).toContain('# TYPE yukta_executions_completed_total counter');
    expect(text).toContain('yukta_executions_completed_total{session="default",workflow="hello",status="SUCCESS"} 1');
    expect(text).toMatch(/yukta_node_duration_seconds_count\{session="default",workflow="hello",node="greet",status="SUCCESS"\} 1/);
    expect(text).toContain('yukta_executions_running 0');
  });

  it('GET /api/metrics (metrics.get) answers the studio snapshot', async () => {
    const { host, base } = await serve();
    await host.engine.waitForRun(await runHello(base));
    const res = await fetch(`${base}/api/metrics`);
    expect(res.status).toBe(200);
    const body = (await res.json()) as Record<string, unknown>;
    expect(body).toMatchObject({ runs: { completed: 1, failed: 0, byStatus: { SUCCESS: 1 } }, running: 0, queued: 0, nodeExecutions: 3 });
  });

  it('with API keys: a VIEWER key reads; no key is 401; a key limited to sessions is 403', async () => {
    const { base } = await serve(KEYS);
    expect((await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer viewer-key-0123456789' } })).status).toBe(200);
    expect((await fetch(`${base}/metrics`, { headers: { 'x-api-key': 'viewer-key-0123456789' } })).status).toBe(200);
    const none = await fetch(`${base}/metrics`);
    expect(none.status).toBe(401);
    expect(((await none.json()) as { error: { code: string } }).error.code).toBe('UNAUTHORIZED');
    expect((await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer wrong-key-0123456789' } })).status).toBe(401);
    const scoped = await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer scoped-key-0123456789' } });
    expect(scoped.status).toBe(403);
    expect((await fetch(`${base}/api/metrics`, { headers: { authorization: 'Bearer scoped-key-0123456789' } })).status).toBe(403);
  });

  it('without keys only loopback Host headers are served', async () => {
    const { base } = await serve();
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${base}/metrics`, { headers: { host: 'evil.example:80' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
    expect(status).toBe(403);
  });
});

describe('OBS-01 late-subscriber catch-up over SSE', () => {
  it('a stream filtered to a finished run starts with its current state', async () => {
    const { host, base } = await serve();
    const id = await runHello(base);
    expect(await host.engine.waitForRun(id)).toBe('SUCCESS');
    const res = await fetch(`${base}/api/events/stream?executionId=${id}`);
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes('event: batch')) text += decoder.decode((await reader.read()).value, { stream: true });
    while (!/event: batch\ndata: .*\n\n/.test(text)) text += decoder.decode((await reader.read()).value, { stream: true });
    await reader.cancel();
    const data = /event: batch\ndata: (.*)\n\n/.exec(text)![1]!;
    const batch = JSON.parse(data) as StudioEvent[];
    expect(batch[0]).toMatchObject({ type: 'EXECUTION_STATUS', executionId: id, status: 'SUCCESS', nodeIds: ['start', 'greet', 'out'] });
    expect(batch.filter((e) => e.type === 'NODE_STATUS').map((e) => [e.nodeId, e.status])).toEqual(
      expect.arrayContaining([
        ['start', 'SUCCESS'],
        ['greet', 'SUCCESS'],
        ['out', 'SUCCESS'],
      ]),
    );
    expect(batch.some((e) => e.type === 'NODE_RESULT' && e.nodeId === 'out')).toBe(true);
  });
});
