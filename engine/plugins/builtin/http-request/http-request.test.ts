import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECRET_MASK } from '../../../../shared/api/security.schema';
import { chain, harness, recorder } from '../../../test-support/engine-harness';
import { json, startServer, type LocalServer } from '../../../test-support/local-servers';

const CANARY = 'canary-3f9a1c7e-secret';
let server: LocalServer;
let flaky = 0;

beforeAll(async () => {
  server = await startServer((req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    if (path === '/echo') return json(res, 200, { method: req.method, url: req.url, auth: req.headers.authorization ?? null, body: req.body });
    if (path === '/text') return void res.end('plain text');
    if (path === '/missing') return json(res, 404, { error: 'no such order' });
    if (path === '/flaky') return flaky++ < 2 ? json(res, 503, { error: 'busy' }) : json(res, 200, { ok: true });
    if (path === '/big') return void res.end('x'.repeat(300_000));
    if (path === '/loop') {
      res.writeHead(302, { location: '/loop' });
      return void res.end();
    }
    json(res, 500, { error: 'unexpected' });
  });
});

afterAll(() => server.close());

function setup(extra: { maxResponseBytes?: number } = {}) {
  const rec = recorder();
  const h = harness([rec.plugin], { security: { env: { YUKTA_SECRET_API: CANARY }, settings: { http: { allowPrivate: true, ...extra } } } });
  return { h, rec };
}

describe('EXT-01 HTTP_REQUEST', () => {
  it('templates method, URL, headers and a JSON body; the secret goes in the request only, masked everywhere after', async () => {
    const { h, rec } = setup();
    const config = {
      method: 'POST',
      url: `${server.url}/echo?id=\${payload.id}`,
      headers: { Authorization: 'Bearer decrypted:api' },
      body: { order: '${payload.id}', qty: '${payload.qty:int}' },
    };
    const id = await h.run(chain('post', [{ nodeId: 'call', type: 'HTTP_REQUEST', config }]), { id: 'A-7', qty: '3' });
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    const seen = server.requests.at(-1)!;
    expect(seen.headers.authorization).toBe(`Bearer ${CANARY}`);
    expect(JSON.parse(seen.body)).toEqual({ order: 'A-7', qty: 3 });
    // The server echoed the key back: the output shows only the mask.
    expect(rec.seen).toEqual([expect.objectContaining({ status: 200, body: expect.objectContaining({ auth: `Bearer ${SECRET_MASK}`, url: '/echo?id=A-7' }) })]);
    expect(JSON.stringify(h.events)).not.toContain(CANARY);
  });

  it('never resolves decrypted:<name> that comes from the payload (no exfiltration through a template)', async () => {
    const { h } = setup();
    const id = await h.run(chain('exfil', [{ nodeId: 'call', type: 'HTTP_REQUEST', config: { url: `${server.url}/echo?q=\${payload.q}` } }]), {
      q: 'decrypted:api',
    });
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    expect(server.requests.at(-1)!.url).toBe('/echo?q=decrypted:api');
  });

  it('reads text bodies; a 404 fails as bad input (no retry); a 503 is retried by the node policy', async () => {
    const { h, rec } = setup();
    const text = await h.run(chain('text', [{ nodeId: 'call', type: 'HTTP_REQUEST', config: { url: `${server.url}/text` } }]));
    expect(await h.engine.waitForRun(text)).toBe('SUCCESS');
    expect(rec.seen.at(-1)).toMatchObject({ status: 200, body: 'plain text' });
    const missing = await h.run(
      chain('missing', [{ nodeId: 'call', type: 'HTTP_REQUEST', config: { url: `${server.url}/missing`, engine: { retry: { maxAttempts: 3 } } } }]),
    );
    expect(await h.engine.waitForRun(missing)).toBe('FAILURE');
    expect(h.engine.getRun(missing).nodes.find((n) => n.nodeId === 'call')).toMatchObject({ error: { name: 'BadInputError', code: 'HTTP_404' } });
    flaky = 0;
    const retried = await h.run(
      chain('flaky', [{ nodeId: 'call', type: 'HTTP_REQUEST', config: { url: `${server.url}/flaky`, engine: { retry: { maxAttempts: 3, backoffMs: 100 } } } }]),
    );
    for (let i = 0; i < 10 && h.engine.getRun(retried).status === 'RUNNING'; i++) await h.clock.advanceAsync(1000);
    expect(await h.engine.waitForRun(retried)).toBe('SUCCESS');
    expect(h.engine.getRun(retried).nodes.find((n) => n.nodeId === 'call')!.counts.retried).toBe(2);
  });

  it('routeByStatus sends each answer to the port of its status class', async () => {
    const ok = recorder('OK');
    const notFound = recorder('NF');
    const h = harness([ok.plugin, notFound.plugin], { security: { settings: { http: { allowPrivate: true } } } });
    const def = {
      workflowId: 'route',
      nodes: [
        { nodeId: 't', type: 'API_TRIGGER' },
        { nodeId: 's', type: 'SPLIT', config: { path: 'payload.paths' } },
        { nodeId: 'call', type: 'HTTP_REQUEST', config: { url: `${server.url}\${payload}`, routeByStatus: true } },
        { nodeId: 'ok', type: 'OK' },
        { nodeId: 'nf', type: 'NF' },
      ],
      edges: [
        { source: 't', target: 's' },
        { source: 's', target: 'call' },
        { source: 'call', target: 'ok', sourcePort: '2xx' },
        { source: 'call', target: 'nf', sourcePort: '4xx' },
      ],
    };
    const id = await h.run(def, { paths: ['/text', '/missing', '/echo'] });
    expect(await h.engine.waitForRun(id)).toBe('SUCCESS');
    expect(ok.seen.map((p) => (p as { status: number }).status)).toEqual([200, 200]);
    expect(notFound.seen).toEqual([expect.objectContaining({ status: 404, body: { error: 'no such order' } })]);
  });

  it('caps the response size (yukta.http.max-response-bytes) and the redirects (yukta.http.max-redirects)', async () => {
    const { h } = setup({ maxResponseBytes: 100_000 });
    const big = await h.run(chain('big', [{ nodeId: 'call', type: 'HTTP_REQUEST', config: { url: `${server.url}/big` } }]));
    expect(await h.engine.waitForRun(big)).toBe('FAILURE');
    expect(h.engine.getRun(big).nodes.find((n) => n.nodeId === 'call')!.error).toMatchObject({ code: 'RESPONSE_TOO_LARGE' });
    const loop = await h.run(chain('loop', [{ nodeId: 'call', type: 'HTTP_REQUEST', config: { url: `${server.url}/loop` } }]));
    expect(await h.engine.waitForRun(loop)).toBe('FAILURE');
    expect(h.engine.getRun(loop).nodes.find((n) => n.nodeId === 'call')!.error).toMatchObject({ code: 'TOO_MANY_REDIRECTS' });
  });

  it('has the idle timeout of its request timeout + 5 s (ENG-05)', () => {
    const { h } = setup();
    const plugin = h.engine.registry.get('HTTP_REQUEST')!;
    expect(plugin.defaultTimeoutMs!(plugin.configSchema.parse({ url: 'http://x', timeoutMs: 10_000 }))).toBe(15_000);
  });
});
