import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../engine/index';
import type { SchedulerLimitsPatch } from '../../shared/api/scheduler.schema';
import type { Role } from '../../shared/api/roles';
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

/** A server whose runs wait on a long DELAY (engine time is manual, so they stay RUNNING); the role comes from `x-test-role`. */
async function serve(limits: SchedulerLimitsPatch) {
  const host = new StudioHost({ engine: { clock: new ManualClock(0), scheduler: { limits: { shutdownTimeoutMs: 0, ...limits } } } });
  const server = await createHttpServer({
    host,
    resolveCaller: (request) => {
      const role = (request.headers['x-test-role'] as Role | undefined) ?? 'ADMIN';
      return { actor: `test:${role}`, role };
    },
  });
  open.push({ host, server });
  const call = async (method: 'GET' | 'POST', url: string, payload?: unknown, headers: Record<string, string> = {}) => {
    const res = await server.app.inject({
      method,
      url,
      headers: { ...LOCAL, ...headers },
      ...(payload ? { payload: payload as Record<string, unknown> } : {}),
    });
    return { status: res.statusCode, headers: res.headers, body: res.json() as Record<string, unknown> & { error?: Record<string, unknown> } };
  };
  const definition = {
    workflowId: 'slow',
    nodes: [
      { nodeId: 't', type: 'API_TRIGGER' },
      { nodeId: 'd', type: 'DELAY', config: { ms: 3_600_000 } },
      { nodeId: 'o', type: 'CONSOLE_TERMINAL' },
    ],
    edges: [
      { source: 't', target: 'd' },
      { source: 'd', target: 'o' },
    ],
  };
  expect((await call('POST', '/api/workflows', { definition })).status).toBe(200);
  const start = (payload: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
    call('POST', '/api/workflow/start', { workflowId: 'slow', payload }, headers);
  return { call, start };
}

describe('ADM-01 over REST', () => {
  it('REJECT answers 429 RATE_LIMITED with Retry-After and starts nothing', async () => {
    const { start, call } = await serve({ maxConcurrent: 1, onLimit: 'REJECT' });
    expect((await start()).status).toBe(200);
    const refused = await start();
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.body.error).toMatchObject({ code: 'RATE_LIMITED', retryAfterSeconds: 1 });
    expect(((await call('GET', '/api/executions')).body as unknown as unknown[]).length).toBe(1);
  });

  it('a full queue answers 429 QUEUE_FULL; a queued start answers 200 with the id of a QUEUED run', async () => {
    const { start, call } = await serve({ maxConcurrent: 1, queueCapacity: 1 });
    await start();
    const queued = await start({}, { 'idempotency-key': 'k-1' });
    expect(queued.status).toBe(200);
    const again = await start({}, { 'idempotency-key': 'k-1' });
    expect(again.body.executionId).toBe(queued.body.executionId);
    const run = await call('GET', `/api/executions/${queued.body.executionId as string}`);
    expect(run.body.status).toBe('QUEUED');
    const full = await start();
    expect([full.status, full.headers['retry-after'], full.body.error?.code]).toEqual([429, '1', 'QUEUE_FULL']);
  });
});

describe('ADM-03 over REST', () => {
  it('GET /api/scheduler lists the queue in admission order with why each start waits', async () => {
    const { start, call } = await serve({ maxConcurrent: 1 });
    await start();
    const low = await start({ 'yukta.priority': 0 });
    const high = await start({ 'yukta.priority': 5 });
    const view = await call('GET', '/api/scheduler?limit=10', undefined, { 'x-test-role': 'VIEWER' });
    expect(view.status).toBe(200);
    const queued = view.body.queued as Array<Record<string, unknown>>;
    expect(queued.map((q) => q.executionId)).toEqual([high.body.executionId, low.body.executionId]);
    expect(queued[1]).toMatchObject({
      position: 2,
      ahead: 1,
      reason: 'waiting for a slot (max-concurrent 1)',
      blockedBy: [{ cap: 'max-concurrent', limit: 1 }],
    });
    expect(view.body.metrics).toMatchObject({ running: 1, queued: 2 });
  });

  it('POST /api/scheduler/limits needs ADMIN, names a bad field, and applies at once', async () => {
    const { start, call } = await serve({ maxConcurrent: 1 });
    await start();
    const queued = await start();
    const operator = await call('POST', '/api/scheduler/limits', { maxConcurrent: 2 }, { 'x-test-role': 'OPERATOR' });
    expect(operator.status).toBe(403);
    const bad = await call('POST', '/api/scheduler/limits', { maxConcurent: 2 });
    expect(bad.status).toBe(400);
    expect(bad.body.error?.message).toContain('maxConcurent');
    const negative = await call('POST', '/api/scheduler/limits', { maxConcurrent: -1 });
    expect(negative.body.error).toMatchObject({ code: 'BAD_INPUT', path: 'maxConcurrent' });
    const ok = await call('POST', '/api/scheduler/limits', { maxConcurrent: 2, onLimit: 'QUEUE' });
    expect(ok).toMatchObject({ status: 200, body: { maxConcurrent: 2, onLimit: 'QUEUE', queueCapacity: 100 } });
    expect((await call('GET', `/api/executions/${queued.body.executionId as string}`)).body.status).toBe('RUNNING');
  });

  it('POST /api/executions/{id}/priority moves a QUEUED start (OPERATOR) and refuses a running one (409)', async () => {
    const { start, call } = await serve({ maxConcurrent: 1 });
    const running = await start();
    await start();
    const second = await start();
    const op = { 'x-test-role': 'OPERATOR' };
    const moved = await call('POST', `/api/executions/${second.body.executionId as string}/priority`, { priority: 3 }, op);
    expect(moved).toMatchObject({ status: 200, body: { priority: 3, position: 1 } });
    const refused = await call('POST', `/api/executions/${running.body.executionId as string}/priority`, { priority: 3 }, op);
    expect(refused.status).toBe(409);
    const viewer = await call('POST', `/api/executions/${second.body.executionId as string}/priority`, { priority: 1 }, { 'x-test-role': 'VIEWER' });
    expect(viewer.status).toBe(403);
  });
});
