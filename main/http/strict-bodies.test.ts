import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Caller } from '../../shared/api/roles';
import { dispatch } from '../host/dispatch';
import type { OperationHandlers } from '../host/operation-handlers';
import { LOCAL_UI_CALLER, StudioHost } from '../host/studio-host';
import { createHttpServer, type StudioHttpServer } from './http-server';
import { helloWorkflow } from './test-workflows';

const LOCAL = { host: '127.0.0.1:4310' };
const JSON_TYPE = { ...LOCAL, 'content-type': 'application/json' };

let host: StudioHost;
let server: StudioHttpServer;
let reported: Array<{ error: unknown; id: string }>;

beforeEach(async () => {
  reported = [];
  host = new StudioHost({ onInternalError: (error, id) => reported.push({ error, id }) });
  server = await createHttpServer({ host });
  await host.invoke('workflows.save', { definition: helloWorkflow() }, LOCAL_UI_CALLER);
});

afterEach(async () => {
  await server.close();
  await host.close();
});

const helloNodes = (): Array<Record<string, unknown>> => helloWorkflow().nodes as Array<Record<string, unknown>>;

/** Sends a raw body, as a client would write it (not through our client, which would fix it). */
async function post(url: string, body: string, headers: Record<string, string> = JSON_TYPE) {
  const res = await server.app.inject({ method: 'POST', url, headers, payload: body });
  return { status: res.statusCode, body: res.json() as { executionId?: string; error?: { code: string; message: string; path?: string } } };
}

describe('SEC-03 strict bodies: unknown fields are refused by name, with the nearest known one', () => {
  it('a misspelt field on a start: "unknown field sesion; did you mean session?" (400), nothing starts', async () => {
    const r = await post('/api/workflow/start', '{"sesion":"ops","workflowId":"hello"}');
    expect(r).toEqual({ status: 400, body: { error: { code: 'BAD_INPUT', message: 'unknown field sesion; did you mean session?', path: 'sesion' } } });
    expect(host.engine.listRuns({ limit: 10 })).toEqual([]);
  });

  it("accepts the seed's sessionId on a start (runs in that session); elsewhere it is an unknown field with a hint", async () => {
    await host.invoke('workflows.save', { session: 'ops', definition: helloWorkflow() }, LOCAL_UI_CALLER);
    const started = await post('/api/workflow/start', '{"sessionId":"ops","workflowId":"hello","payload":{"name":"Ada"}}');
    expect(started.status).toBe(200);
    expect(host.engine.getRun(started.body.executionId!).session).toBe('ops');
    const both = await post('/api/workflow/start', '{"sessionId":"ops","session":"ops","workflowId":"hello"}');
    expect(both).toEqual({
      status: 400,
      body: { error: { code: 'BAD_INPUT', message: "give session or sessionId, not both (sessionId is the seed's name for session)", path: 'sessionId' } },
    });
    const save = await post('/api/workflows', JSON.stringify({ sessionId: 'ops', definition: helloWorkflow() }));
    expect(save.body.error).toEqual({ code: 'BAD_INPUT', message: 'unknown field sessionId; did you mean session?', path: 'sessionId' });
  });

  it('nested objects are strict too (definitions, nodes, commands), and plugin config stays open', async () => {
    const definition = { ...helloWorkflow(), nodes: helloNodes().map((n, i) => (i === 1 ? { ...n, positon: { x: 1, y: 2 } } : n)) };
    const r = await post('/api/workflows', JSON.stringify({ definition }));
    expect(r.body.error).toEqual({
      code: 'BAD_INPUT',
      message: 'unknown field definition.nodes.1.positon; did you mean position?',
      path: 'definition.nodes.1.positon',
    });
    const far = await post('/api/workflows', JSON.stringify({ definition: { ...helloWorkflow(), zzzzzz: 1 } }));
    expect(far.body.error).toEqual({ code: 'BAD_INPUT', message: 'unknown field definition.zzzzzz', path: 'definition.zzzzzz' });
    const config = {
      ...helloWorkflow(),
      workflowId: 'open',
      nodes: helloNodes().map((n) => (n.type === 'TRANSFORM' ? { ...n, config: { set: { anything: { goes: [1] } } } } : n)),
    };
    expect((await post('/api/workflows', JSON.stringify({ definition: config }))).status).toBe(200);
  });

  it('__proto__, constructor and prototype keys anywhere: "key __proto__ is not allowed at payload.x" (400)', async () => {
    const proto = await post('/api/workflow/start', '{"workflowId":"hello","payload":{"x":{"__proto__":{"polluted":true}}}}');
    expect(proto).toEqual({ status: 400, body: { error: { code: 'BAD_INPUT', message: 'key __proto__ is not allowed at payload.x', path: 'payload.x' } } });
    const inConfig = await post(
      '/api/workflows',
      '{"definition":{"workflowId":"p","nodes":[{"nodeId":"t","type":"API_TRIGGER","config":{"constructor":{"prototype":1}}}]}}',
    );
    expect(inConfig.body.error).toEqual({
      code: 'BAD_INPUT',
      message: 'key constructor is not allowed at definition.nodes.0.config',
      path: 'definition.nodes.0.config',
    });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe('SEC-03 REST bodies are JSON: any other content type is 415 naming it', () => {
  it('text/plain, form-encoded and no content type with a body are refused with 415', async () => {
    const text = await post('/api/workflow/start', '{"workflowId":"hello"}', { ...LOCAL, 'content-type': 'text/plain' });
    expect(text).toEqual({
      status: 415,
      body: {
        error: {
          code: 'UNSUPPORTED_MEDIA_TYPE',
          message: 'content type "text/plain" is not accepted: send the body as application/json',
          path: 'content-type',
        },
      },
    });
    const form = await post('/api/workflow/start', 'workflowId=hello', { ...LOCAL, 'content-type': 'application/x-www-form-urlencoded' });
    expect(form.status).toBe(415);
    expect(form.body.error?.message).toContain('"application/x-www-form-urlencoded"');
    expect(host.engine.listRuns({ limit: 10 })).toEqual([]);
  });

  it('JSON with a charset parameter is accepted; broken JSON is 400 naming the body', async () => {
    expect((await post('/api/workflow/start', '{"workflowId":"hello"}', { ...LOCAL, 'content-type': 'application/json; charset=utf-8' })).status).toBe(200);
    expect((await post('/api/workflow/start', '{"workflowId":')).body.error).toMatchObject({ code: 'BAD_INPUT', path: 'body' });
  });
});

describe('SEC-03 a 500 says "internal error <id>" and never the exception text; the id is in the log', () => {
  const caller: Caller = LOCAL_UI_CALLER;

  it('an unexpected throw in a handler', async () => {
    const handlers = { 'nodeTypes.list': async () => Promise.reject(new Error('ENOENT /home/ada/.secret/db at line 42')) } as unknown as OperationHandlers;
    const seen: Array<{ error: unknown; id: string }> = [];
    const result = await dispatch(handlers, 'nodeTypes.list', {}, caller, {
      limits: { maxDepth: 128, maxBytes: 1024 },
      onInternalError: (error, id) => seen.push({ error, id }),
    });
    expect(result.ok).toBe(false);
    const error = (result as { error: { code: string; message: string } }).error;
    expect(error.code).toBe('INTERNAL');
    expect(error.message).toMatch(/^internal error [0-9a-f]{12}$/);
    expect(error.message).not.toContain('secret');
    expect(seen).toHaveLength(1);
    expect(error.message).toBe(`internal error ${seen[0]!.id}`);
    expect((seen[0]!.error as Error).message).toContain('.secret');
  });

  it('over REST: the caller resolver throwing an unexpected error answers 500 with the id the log got', async () => {
    const broken = await createHttpServer({
      host,
      resolveCaller: () => {
        throw new TypeError("Cannot read properties of undefined (reading 'token')");
      },
    });
    try {
      const res = await broken.app.inject({ method: 'GET', url: '/api/node-types', headers: LOCAL });
      expect(res.statusCode).toBe(500);
      const { error } = res.json() as { error: { code: string; message: string } };
      expect(error).toEqual({ code: 'INTERNAL', message: `internal error ${reported[0]!.id}` });
      expect(res.body).not.toContain('token');
    } finally {
      await broken.close();
    }
  });
});
