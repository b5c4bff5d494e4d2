import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OPERATION_NAMES, STUDIO_API, type OperationName } from '../../shared/api/contract';
import { toHttpRequest } from '../../shared/api/http-routes';
import { StudioHost } from '../host/studio-host';
import { createHttpServer, type StudioHttpServer } from './http-server';
import { cyclicWorkflow, helloWorkflow } from './test-workflows';

const LOCAL = { host: '127.0.0.1:4310' };

let host: StudioHost;
let server: StudioHttpServer;

beforeEach(async () => {
  host = new StudioHost();
  server = await createHttpServer({ host });
});

afterEach(async () => {
  await server.close();
  await host.close();
});

async function call(operation: OperationName, input: Record<string, unknown>, headers: Record<string, string> = {}) {
  const req = toHttpRequest(operation, input);
  const res = await server.app.inject({ method: req.method, url: req.url, headers: { ...LOCAL, ...headers }, ...(req.body ? { payload: req.body } : {}) });
  return { status: res.statusCode, body: res.json() as Record<string, unknown> & { error?: Record<string, unknown> } };
}

async function saveAndRun(payload: Record<string, unknown>) {
  expect((await call('workflows.save', { definition: helloWorkflow() })).status).toBe(200);
  const started = await call('runs.start', { workflowId: 'hello', payload });
  const executionId = started.body.executionId as string;
  await host.engine.waitForRun(executionId);
  return executionId;
}

describe('HTTP transport: one REST route per StudioApi operation', () => {
  it('registers a route for every operation of the contract', () => {
    for (const name of OPERATION_NAMES) {
      const { method, path } = STUDIO_API[name].http;
      expect(server.app.hasRoute({ method, url: path }), name).toBe(true);
    }
  });

  it('round-trips nodeTypes.list, workflows.save/list/get and workflows.validate', async () => {
    const types = await call('nodeTypes.list', {});
    expect(types.status).toBe(200);
    expect((types.body as unknown as Array<{ type: string }>).map((t) => t.type)).toContain('API_TRIGGER');

    const saved = await call('workflows.save', { session: 'team', definition: helloWorkflow(), note: 'first' });
    expect(saved).toMatchObject({ status: 200, body: { workflowId: 'hello', changed: true } });

    const list = await call('workflows.list', { session: 'team' });
    expect(list.body).toEqual([expect.objectContaining({ session: 'team', workflowId: 'hello', nodeCount: 3 })]);

    const got = await call('workflows.get', { session: 'team', workflowId: 'hello' });
    expect(got).toMatchObject({ status: 200, body: { session: 'team', version: saved.body.version, note: 'first' } });

    const validated = await call('workflows.validate', { definition: helloWorkflow() });
    expect(validated).toEqual({ status: 200, body: { valid: true, issues: [] } });
  });

  it('round-trips runs.start, runs.get and runs.list', async () => {
    const executionId = await saveAndRun({ name: 'Ada' });
    const run = await call('runs.get', { executionId });
    expect(run.status).toBe(200);
    expect(run.body).toMatchObject({ executionId, status: 'SUCCESS', results: [{ nodeId: 'out', payload: { name: 'Ada', greeting: 'Hello Ada' } }] });

    const runs = await call('runs.list', { workflowId: 'hello', status: 'SUCCESS', limit: 5 });
    expect(runs.body).toEqual([expect.objectContaining({ executionId, status: 'SUCCESS' })]);
  });

  it('passes the Idempotency-Key header of runs.start into the input', async () => {
    await call('workflows.save', { definition: helloWorkflow() });
    const tooLong = await call('runs.start', { workflowId: 'hello' }, { 'idempotency-key': 'k'.repeat(300) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body.error).toMatchObject({ code: 'BAD_INPUT', path: 'idempotencyKey' });
    const ok = await call('runs.start', { workflowId: 'hello' }, { 'idempotency-key': 'order-1' });
    expect(ok.status).toBe(200);
    await host.engine.waitForRun(ok.body.executionId as string);
  });

  it('answers NOT_FOUND with 404 for a missing workflow', async () => {
    const res = await call('workflows.get', { session: 'default', workflowId: 'nope' });
    expect(res).toMatchObject({ status: 404, body: { error: { code: 'NOT_FOUND', path: 'workflowId' } } });
  });
});

describe('HTTP transport: errors as {error: ApiErrorData}', () => {
  it('answers BAD_INPUT naming the field', async () => {
    const definition = helloWorkflow();
    (definition.nodes as Array<Record<string, unknown>>)[0]!.nodeId = 'a/b';
    const res = await call('workflows.save', { definition });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'BAD_INPUT', path: 'definition.nodes.0.nodeId' });
  });

  it('answers VALIDATION_FAILED (422) with DEF-02/cycle issues for a cycle', async () => {
    const res = await call('workflows.save', { definition: cyclicWorkflow() });
    expect(res.status).toBe(422);
    expect(res.body.error).toMatchObject({ code: 'VALIDATION_FAILED' });
    const issues = res.body.error!.issues as Array<{ code: string }>;
    expect(issues.map((i) => i.code)).toContain('DEF-02/cycle');
  });

  it('answers 413 PAYLOAD_TOO_LARGE for a body over 1 MiB', async () => {
    const payload = JSON.stringify({ workflowId: 'hello', payload: { blob: 'x'.repeat(1024 * 1024) } });
    const res = await server.app.inject({ method: 'POST', url: '/api/workflow/start', headers: { ...LOCAL, 'content-type': 'application/json' }, payload });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ error: { code: 'PAYLOAD_TOO_LARGE' } });
  });

  it('answers 400 BAD_INPUT for malformed JSON', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/workflows',
      headers: { ...LOCAL, 'content-type': 'application/json' },
      payload: '{"definition": ',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ error: { code: 'BAD_INPUT' } });
  });

  it('answers 404 UNKNOWN_OPERATION for an unknown /api route', async () => {
    for (const [method, url] of [
      ['GET', '/api/nope'],
      ['POST', '/api/workflows/nope/extra'],
      ['DELETE', '/api/workflows'],
    ] as const) {
      const res = await server.app.inject({ method, url, headers: LOCAL });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toMatchObject({ error: { code: 'UNKNOWN_OPERATION' } });
    }
  });

  it('sends a strict Content-Security-Policy with every response', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/node-types', headers: LOCAL });
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
  });
});

describe('SEC-01 Host/Origin filter', () => {
  it('accepts each loopback Host', async () => {
    for (const h of ['localhost', 'localhost:4310', '127.0.0.1:4310', '[::1]:4310', 'LOCALHOST:1']) {
      const res = await server.app.inject({ method: 'GET', url: '/api/workflows', headers: { host: h } });
      expect(res.statusCode, h).toBe(200);
    }
  });

  it('refuses a foreign Host with 403 on every request', async () => {
    for (const h of ['evil.example', 'evil.example:4310', 'localhost.evil.example', 'app.localhost', 'evil@localhost', '10.0.0.1:4310']) {
      for (const [method, url] of [
        ['GET', '/api/workflows'],
        ['GET', '/'],
        ['GET', '/api/events/stream'],
        ['POST', '/api/workflows/validate'],
      ] as const) {
        const res = await server.app.inject({ method, url, headers: { host: h } });
        expect(res.statusCode, `${h} ${method} ${url}`).toBe(403);
        expect(res.json()).toMatchObject({ error: { code: 'FORBIDDEN' } });
      }
    }
  });

  it('refuses a POST with a foreign Origin and allows a same-origin one', async () => {
    const body = { definition: helloWorkflow() };
    for (const origin of ['http://evil.example', 'http://localhost:9999', 'null', 'file://', 'http://127.0.0.1:4310.evil.example']) {
      const res = await server.app.inject({ method: 'POST', url: '/api/workflows/validate', headers: { ...LOCAL, origin }, payload: body });
      expect(res.statusCode, origin).toBe(403);
      expect(res.json()).toMatchObject({ error: { code: 'FORBIDDEN' } });
    }
    const same = await server.app.inject({
      method: 'POST',
      url: '/api/workflows/validate',
      headers: { ...LOCAL, origin: 'http://127.0.0.1:4310' },
      payload: body,
    });
    expect(same.statusCode).toBe(200);
    const none = await server.app.inject({ method: 'POST', url: '/api/workflows/validate', headers: LOCAL, payload: body });
    expect(none.statusCode).toBe(200);
  });

  it('allows a GET with a foreign Origin (the browser keeps the answer from that page)', async () => {
    const res = await server.app.inject({ method: 'GET', url: '/api/workflows', headers: { ...LOCAL, origin: 'http://evil.example' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
  });

  it('can be switched off for the API-key mode', async () => {
    const open = await createHttpServer({ host, localAccessOnly: false });
    const res = await open.app.inject({ method: 'GET', url: '/api/workflows', headers: { host: 'studio.example' } });
    expect(res.statusCode).toBe(200);
    await open.close();
  });
});
