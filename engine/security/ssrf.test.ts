import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chain, harness, recorder } from '../test-support/engine-harness';
import { startServer, testLookup, type LocalServer } from '../test-support/local-servers';
import { GuardedHttpClient } from './guarded-http';

let inside: LocalServer;
let publicLooking: LocalServer;

const LIMITS = { maxResponseBytes: 1024 * 1024, maxRedirects: 5 };

beforeAll(async () => {
  inside = await startServer((_req, res) => void res.end('internal secret page'));
  // Stands for a public server: 127.0.0.2 is let through by yukta.http.allowed-addresses in these tests.
  publicLooking = await startServer((req, res) => {
    const to = new URL(req.url, 'http://x').searchParams.get('to');
    res.writeHead(302, { location: to ?? '/' });
    res.end();
  }, '127.0.0.2');
});

afterAll(async () => {
  await inside.close();
  await publicLooking.close();
});

const lookup = () => testLookup({ 'loopback.test': '127.0.0.1', 'metadata.test': '169.254.169.254', 'private.test': '10.1.2.3', 'public.test': '127.0.0.2' });

function targets(): Array<[string, string]> {
  const port = inside.port;
  const redirect = (to: string) => `http://public.test:${publicLooking.port}/?to=${encodeURIComponent(to)}`;
  return [
    ['loopback 127.0.0.1', `http://127.0.0.1:${port}/`],
    ['loopback [::1]', `http://[::1]:${port}/`],
    ['loopback 127.1.2.3', `http://127.1.2.3:${port}/`],
    ['metadata 169.254.169.254', 'http://169.254.169.254/latest/meta-data/'],
    ['private 10/8', 'http://10.0.0.1/'],
    ['private 192.168/16', 'http://192.168.1.1/'],
    ['private 172.16/12', 'http://172.16.0.1/'],
    ['unspecified 0.0.0.0', `http://0.0.0.0:${port}/`],
    ['unspecified [::]', `http://[::]:${port}/`],
    ['decimal 2130706433', `http://2130706433:${port}/`],
    ['hex 0x7f.1', `http://0x7f.1:${port}/`],
    ['IPv4-mapped [::ffff:127.0.0.1]', `http://[::ffff:127.0.0.1]:${port}/`],
    ['unique-local [fd00::1]', 'http://[fd00::1]/'],
    ['link-local [fe80::1]', 'http://[fe80::1]/'],
    ['CGNAT 100.64.0.1', 'http://100.64.0.1/'],
    ['name resolving to loopback', `http://loopback.test:${port}/`],
    ['name resolving to metadata', 'http://metadata.test/latest/meta-data/'],
    ['name resolving to 10/8', 'http://private.test/'],
    ['public URL redirecting to loopback', redirect(`http://127.0.0.1:${port}/`)],
    ['public URL redirecting to a name resolving to loopback', redirect(`http://loopback.test:${port}/`)],
    ['public URL redirecting to metadata', redirect('http://169.254.169.254/latest/meta-data/')],
    ['public URL redirecting to 10/8', redirect('http://10.9.9.9/')],
    ['non-http scheme file:', 'file:///etc/passwd'],
    ['credentials in the URL', `http://user:pw@127.0.0.2:${publicLooking.port}/`],
  ];
}

describe('SEC-03 SSRF: HTTP refuses loopback, private, link-local and metadata targets after DNS and on every redirect', () => {
  it('blocks every target (100 %) and the internal server receives nothing', async () => {
    const client = new GuardedHttpClient({ allowPrivate: false, allowedAddresses: ['127.0.0.2'], lookup: lookup() }, LIMITS);
    const list = targets();
    const outcomes: string[] = [];
    for (const [name, url] of list) {
      const result = await client.request({ method: 'GET', url }).then(
        (r) => `reached (${r.status})`,
        (e: { code?: string }) => e.code ?? 'error',
      );
      outcomes.push(`${name}: ${result}`);
    }
    expect(outcomes.filter((o) => !o.endsWith('SSRF_BLOCKED'))).toEqual([]);
    expect(inside.requests).toHaveLength(0);
    // The "public" hop itself was reached: the refusal happened at the redirect, not before.
    expect(publicLooking.requests.length).toBeGreaterThanOrEqual(4);
    console.log(`SEC-03 SSRF: ${outcomes.length}/${list.length} targets blocked`);
  });

  it('reaches the same targets once yukta.http.allow-private=true (loopback ones here)', async () => {
    const client = new GuardedHttpClient({ allowPrivate: true, allowedAddresses: [], lookup: lookup() }, LIMITS);
    const before = inside.requests.length;
    for (const url of [
      `http://127.0.0.1:${inside.port}/`,
      `http://loopback.test:${inside.port}/`,
      `http://public.test:${publicLooking.port}/?to=${encodeURIComponent(`http://127.0.0.1:${inside.port}/`)}`,
    ]) {
      const response = await client.request({ method: 'GET', url });
      expect(response.body.toString()).toBe('internal secret page');
    }
    expect(inside.requests.length - before).toBe(3);
  });

  it('an HTTP_REQUEST node to a blocked target fails with SSRF_BLOCKED (bad input: no retry) and says how to allow it', async () => {
    const rec = recorder();
    const h = harness([rec.plugin], { security: { lookup: lookup() } });
    const id = await h.run(
      chain('ssrf', [
        { nodeId: 'get', type: 'HTTP_REQUEST', config: { url: 'http://metadata.test/latest/meta-data/', engine: { retry: { maxAttempts: 3 } } } },
      ]),
    );
    expect(await h.engine.waitForRun(id)).toBe('FAILURE');
    const node = h.engine.getRun(id).nodes.find((n) => n.nodeId === 'get')!;
    expect(node.error).toMatchObject({ code: 'SSRF_BLOCKED' });
    expect(node.error!.message).toContain('yukta.http.allow-private=true');
    expect(node.counts.retried ?? 0).toBe(0);
  });
});
