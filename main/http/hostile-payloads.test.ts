import { afterEach, describe, expect, it } from 'vitest';
import { tempDataDir } from '../host/host-test-support';
import { parseHostSettings } from '../host/host-settings';
import { StudioHost, type StoreKind } from '../host/studio-host';
import { createHttpServer, type StudioHttpServer } from './http-server';
import { helloWorkflow } from './test-workflows';

const open: Array<{ host: StudioHost; server: StudioHttpServer }> = [];
afterEach(async () => {
  for (const { host, server } of open.splice(0).reverse()) {
    await server.close();
    await host.close();
  }
});

/** A real host on a real data folder, behind fastify listening on a port. */
async function serve(dataDir: string, store: StoreKind, settings: Record<string, unknown> = {}) {
  const warnings: string[] = [];
  const host = new StudioHost({ dataDir, store, settings: parseHostSettings(settings), env: {}, onWarning: (m) => warnings.push(m) });
  await host.ready;
  const server = await createHttpServer({ host, bind: { port: 0 } });
  const entry = { host, server };
  open.push(entry);
  const { url } = await server.listen();
  const send = async (method: string, path: string, body?: string) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body }),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> & { error?: { code: string; message: string; path?: string } } };
  };
  const stop = async () => {
    open.splice(open.indexOf(entry), 1);
    await server.close();
    await host.close();
  };
  return { host, send, stop, warnings };
}

/** A start body whose payload nests `levels` arrays deep (as text: building it as an object would be the recursion we avoid). */
function deepStart(levels: number): string {
  return `{"workflowId":"hello","payload":{"x":${'['.repeat(levels)}${']'.repeat(levels)}}}`;
}

const normalStart = JSON.stringify({ workflowId: 'hello', payload: { name: 'Ada' } });

describe.each(['sqlite', 'file'] as const)('SEC-03/DUR-01 hostile payloads cannot wedge the host (%s store)', (store) => {
  it('5,000 and 100,000 levels → 400 naming payload; the next start → 200; a SetLimits written after them survives a restart', async () => {
    const dir = await tempDataDir();
    const first = await serve(dir, store);
    expect((await first.send('POST', '/api/workflows', JSON.stringify({ definition: helloWorkflow() }))).status).toBe(200);

    for (const levels of [5_000, 100_000]) {
      const refused = await first.send('POST', '/api/workflow/start', deepStart(levels));
      expect(refused.status).toBe(400);
      expect(refused.body.error).toMatchObject({ code: 'BAD_INPUT', message: 'payload.x.0.0.0.0… nests deeper than 128 levels (yukta.execution.max-depth)' });
      expect(refused.body.error!.path!.startsWith('payload')).toBe(true);
      const next = await first.send('POST', '/api/workflow/start', normalStart);
      expect(next.status).toBe(200);
    }
    const acknowledged = (await first.send('POST', '/api/workflow/start', normalStart)).body.executionId as string;
    expect((await first.send('POST', '/api/scheduler/limits', JSON.stringify({ maxConcurrent: 7, queueCapacity: 33 }))).status).toBe(200);
    await first.host.engine.waitForRun(acknowledged);
    expect(first.warnings).toEqual([]); // no write ever failed
    await first.stop();

    const second = await serve(dir, store);
    const scheduler = await second.send('GET', '/api/scheduler');
    expect(scheduler.body).toMatchObject({ limits: { maxConcurrent: 7, queueCapacity: 33 } });
    expect((await second.send('GET', `/api/executions/${acknowledged}`)).body).toMatchObject({ executionId: acknowledged, status: 'SUCCESS' });
  });

  it('with the depth limit raised out of the way, a payload no store can write fails that one start (400), and the next start and a SetLimits are stored', async () => {
    const dir = await tempDataDir();
    // 10,000 is the most the settings table allows (CFG-01); the 5,000-deep payload of the issue then passes the check.
    const first = await serve(dir, store, { 'yukta.execution.max-depth': 10_000 });
    expect((await first.send('POST', '/api/workflows', JSON.stringify({ definition: helloWorkflow() }))).status).toBe(200);
    const refused = await first.send('POST', '/api/workflow/start', deepStart(5_000));
    expect(refused.status).toBe(400);
    expect(refused.body.error).toMatchObject({ code: 'BAD_INPUT', path: 'payload' });
    expect(refused.body.error!.message).toMatch(/^the start was refused and its run cancelled: the RUN_STARTED entry of .* cannot be stored: /);
    const next = await first.send('POST', '/api/workflow/start', normalStart);
    expect(next.status).toBe(200);
    expect((await first.send('POST', '/api/scheduler/limits', JSON.stringify({ maxConcurrent: 5 }))).status).toBe(200);
    await first.host.engine.waitForRun(next.body.executionId as string);
    await first.stop();

    const second = await serve(dir, store);
    expect((await second.send('GET', '/api/scheduler')).body).toMatchObject({ limits: { maxConcurrent: 5 } });
    expect((await second.send('GET', `/api/executions/${next.body.executionId as string}`)).body).toMatchObject({ status: 'SUCCESS' });
  });
});
