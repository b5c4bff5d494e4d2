import { mkdtempSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { StudioEvent } from '../../shared/events/events';
import { StudioHost } from '../host/studio-host';
import { createHttpServer, type StudioHttpServer } from './http-server';
import { helloWorkflow } from './test-workflows';

let host: StudioHost;
let server: StudioHttpServer;
let base: string;
let rendererDir: string;

beforeAll(async () => {
  rendererDir = mkdtempSync(join(tmpdir(), 'yukta-renderer-'));
  writeFileSync(join(rendererDir, 'index.html'), '<!doctype html><div id="root">studio</div>');
  mkdirSync(join(rendererDir, 'assets'));
  writeFileSync(join(rendererDir, 'assets', 'app.js'), 'console.log("app")');
  host = new StudioHost();
  server = await createHttpServer({ host, rendererDir, bind: { port: 0 }, heartbeatMs: 20 });
  base = (await server.listen()).url;
});

afterAll(async () => {
  await server.close();
  await host.close();
  rmSync(rendererDir, { recursive: true, force: true });
});

interface SseMessage {
  event?: string;
  data?: string;
  comment?: string;
}

/** Reads SSE messages from a fetch response until `until` says stop. */
async function readSse(res: Response, until: (message: SseMessage) => boolean): Promise<SseMessage[]> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const seen: SseMessage[] = [];
  let text = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error('stream ended early');
    text += decoder.decode(value, { stream: true });
    let end: number;
    while ((end = text.indexOf('\n\n')) >= 0) {
      const block = text.slice(0, end);
      text = text.slice(end + 2);
      const message: SseMessage = {};
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) message.comment = line.slice(1).trim();
        else if (line.startsWith('event: ')) message.event = line.slice(7);
        else if (line.startsWith('data: ')) message.data = line.slice(6);
      }
      seen.push(message);
      if (until(message)) {
        await reader.cancel();
        return seen;
      }
    }
  }
}

async function post(path: string, body: unknown): Promise<Response> {
  return fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

describe('HTTP transport over a real socket', () => {
  it('listens on a free port on 127.0.0.1 and answers API calls', async () => {
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${base}/api/node-types`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
  });

  it("streams a run's events as SSE batches and unsubscribes when the client leaves", async () => {
    expect((await post('/api/workflows', { definition: helloWorkflow() })).status).toBe(200);
    let unsubscribed!: () => void;
    const gone = new Promise<void>((resolve) => (unsubscribed = resolve));
    const subscribe = host.subscribe.bind(host);
    const spy = vi.spyOn(host, 'subscribe').mockImplementation((filter, listener) => {
      const off = subscribe(filter, listener);
      return () => {
        off();
        unsubscribed();
      };
    });

    const stream = await fetch(`${base}/api/events/stream?type=EXECUTION_STATUS&type=NODE_RESULT,LOG`);
    expect(stream.status).toBe(200);
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    expect(stream.headers.get('cache-control')).toBe('no-cache');
    expect(stream.headers.get('x-accel-buffering')).toBe('no');

    const started = await post('/api/workflow/start', { workflowId: 'hello', payload: { name: 'Grace' } });
    const { executionId } = (await started.json()) as { executionId: string };
    const events: StudioEvent[] = [];
    await readSse(stream, (m) => {
      if (m.event !== 'batch') return false;
      events.push(...(JSON.parse(m.data!) as StudioEvent[]));
      return events.some((e) => e.type === 'EXECUTION_STATUS' && e.status === 'SUCCESS');
    });
    expect(events.every((e) => e.executionId === executionId)).toBe(true);
    expect(new Set(events.map((e) => e.type))).toEqual(new Set(['EXECUTION_STATUS', 'NODE_RESULT', 'LOG']));
    expect(events.find((e) => e.type === 'NODE_RESULT')).toMatchObject({ nodeId: 'out', payload: { greeting: 'Hello Grace' } });
    await gone;
    spy.mockRestore();
  });

  it('sends heartbeat comments on a quiet stream', async () => {
    const stream = await fetch(`${base}/api/events/stream?executionId=none`);
    const seen = await readSse(stream, (m) => m.comment === 'heartbeat');
    expect(seen.at(-1)).toEqual({ comment: 'heartbeat' });
  });

  it('refuses a bad stream filter with 400 naming the field', async () => {
    const res = await fetch(`${base}/api/events/stream?type=NODE_STATUS,BOGUS`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ error: { code: 'BAD_INPUT', path: 'type.1' } });
  });

  it('serves the built renderer with an SPA fallback, never for /api', async () => {
    const index = await fetch(`${base}/`);
    expect(index.status).toBe(200);
    expect(await index.text()).toContain('studio');
    const asset = await fetch(`${base}/assets/app.js`);
    expect(await asset.text()).toContain('console.log');
    const deep = await fetch(`${base}/runs/123`);
    expect(deep.status).toBe(200);
    expect(await deep.text()).toContain('id="root"');
    const api = await fetch(`${base}/api/unknown`);
    expect(api.status).toBe(404);
    expect(await api.json()).toMatchObject({ error: { code: 'UNKNOWN_OPERATION' } });
  });

  it('does not serve files outside the renderer folder', async () => {
    const res = await fetch(`${base}/..%2f..%2fetc%2fpasswd`);
    expect(await res.text()).not.toContain('root:');
  });
});

describe('HTTP server lifecycle', () => {
  it('closes while an event stream is open', async () => {
    const own = new StudioHost();
    const srv = await createHttpServer({ host: own, bind: { port: 0 } });
    const { url } = await srv.listen();
    const stream = await fetch(`${url}/api/events/stream`);
    const reader = stream.body!.getReader();
    await reader.read(); // the ": connected" comment
    await srv.close();
    expect((await reader.read()).done).toBe(true);
    await own.close();
  });
});
