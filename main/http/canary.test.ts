import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SECRET_MASK } from '../../shared/api/security.schema';
import { STUDIO_API, type OperationName } from '../../shared/api/contract';
import { toHttpRequest } from '../../shared/api/http-routes';
import { parseHostSettings } from '../host/host-settings';
import { EncryptedSecretStore, type StringEncryptor } from '../host/secret-store';
import { StudioHost } from '../host/studio-host';
import { createHttpServer, type StudioHttpServer } from './http-server';

/**
 * SEC-02 canary proof, end to end through the host and REST: two canary secrets — one from
 * `YUKTA_SECRET_APIKEY`, one put in the secret store over REST — are used through `decrypted:<name>` in
 * HTTP_REQUEST headers and PROCESS_EXECUTOR environments (runs that succeed and runs that fail with the
 * secret in the failure), and then counted everywhere a person or the renderer can look: console and
 * warnings, the SSE stream, every API response (runs.get/list, recorded outputs, audit, definitions,
 * versions, secrets.list), error messages, and every file of the data folder. Expected count: 0.
 */
const CANARY_ENV = 'canary-env-9b2f41d7e0c3';
const CANARY_STORE = 'canary-store-5c8e13a0ff71';
const CANARIES = [CANARY_ENV, CANARY_STORE];
const LOCAL = { host: '127.0.0.1:4310' };

/** Reversible but not plain: the secrets file must not hold the canary as text either. */
const encryptor: StringEncryptor = {
  isEncryptionAvailable: () => true,
  encryptString: (text) => Buffer.from([...Buffer.from(text, 'utf8')].map((b) => b ^ 0x5a)),
  decryptString: (data) => Buffer.from([...data].map((b) => b ^ 0x5a)).toString('utf8'),
};

let root: string;
let upstream: Server;
let upstreamUrl: string;
const received: string[] = [];
let host: StudioHost;
let server: StudioHttpServer;
let port: number;
const seen: string[] = [];
const consoleLines: string[] = [];

function count(text: string): number {
  return CANARIES.reduce((n, canary) => n + text.split(canary).length - 1, 0);
}

async function call(operation: OperationName, input: Record<string, unknown>): Promise<{ status: number; body: unknown }> {
  const req = toHttpRequest(operation, STUDIO_API[operation].input.parse(input) as Record<string, unknown>);
  const res = await server.app.inject({ method: req.method, url: req.url, headers: LOCAL, ...(req.body ? { payload: req.body } : {}) });
  seen.push(res.body); // every renderer-facing response is searched
  return { status: res.statusCode, body: res.json() as unknown };
}

async function runToEnd(workflowId: string, payload: Record<string, unknown> = {}): Promise<{ executionId: string; status: string }> {
  const started = await call('runs.start', { workflowId, payload });
  expect(started.status, JSON.stringify(started.body)).toBe(200);
  const { executionId } = started.body as { executionId: string };
  const status = await host.engine.waitForRun(executionId);
  return { executionId, status };
}

/** Reads the SSE stream over a real socket until `stop` resolves. */
function readEventStream(stop: Promise<void>): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    const req = httpRequest({ host: '127.0.0.1', port, path: '/api/events/stream', headers: LOCAL }, (res: IncomingMessage) => {
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      void stop.then(() => {
        res.destroy();
        resolve(text);
      });
    });
    req.on('error', reject);
    req.end();
  });
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

const ECHO = {
  workflowId: 'canary',
  nodes: [
    { nodeId: 't', type: 'API_TRIGGER' },
    {
      nodeId: 'call',
      type: 'HTTP_REQUEST',
      config: {
        method: 'POST',
        url: '${payload.url}',
        headers: { Authorization: 'Bearer decrypted:apikey', 'X-Store': 'decrypted:storetoken' },
        body: { q: 'hi' },
      },
    },
    {
      nodeId: 'env',
      type: 'PROCESS_EXECUTOR',
      config: { command: '/usr/bin/env', env: { TOKEN: 'decrypted:apikey', STORE: 'decrypted:storetoken' }, output: 'lines' },
    },
    { nodeId: 'o', type: 'CONSOLE_TERMINAL' },
  ],
  edges: [
    { source: 't', target: 'call' },
    { source: 'call', target: 'env' },
    { source: 'env', target: 'o' },
  ],
};
const FAILING_PROCESS = {
  workflowId: 'canary-proc-fail',
  nodes: [
    { nodeId: 't', type: 'API_TRIGGER' },
    {
      nodeId: 'p',
      type: 'PROCESS_EXECUTOR',
      config: {
        command: '/bin/sh',
        args: ['-c', 'echo "token=$TOKEN store=$STORE" >&2; echo "$TOKEN"; exit 3'],
        env: { TOKEN: 'decrypted:apikey', STORE: 'decrypted:storetoken' },
      },
    },
    { nodeId: 'o', type: 'CONSOLE_TERMINAL' },
  ],
  edges: [
    { source: 't', target: 'p' },
    { source: 'p', target: 'o' },
  ],
};
const FAILING_HTTP = {
  workflowId: 'canary-http-fail',
  nodes: [
    { nodeId: 't', type: 'API_TRIGGER' },
    {
      nodeId: 'call',
      type: 'HTTP_REQUEST',
      config: { url: '${payload.url}', headers: { Authorization: 'Bearer decrypted:apikey', 'X-Store': 'decrypted:storetoken' } },
    },
    { nodeId: 'o', type: 'CONSOLE_TERMINAL' },
  ],
  edges: [
    { source: 't', target: 'call' },
    { source: 'call', target: 'o' },
  ],
};

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'yukta-canary-'));
  upstream = createServer((req, res) => {
    const auth = `${req.headers.authorization ?? ''} ${String(req.headers['x-store'] ?? '')}`;
    received.push(auth);
    // The far end echoes the credentials back, in a success and in an error body.
    res.writeHead(req.url?.startsWith('/fail') ? 400 : 200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ echoed: auth, error: req.url?.startsWith('/fail') ? `bad key ${auth}` : undefined }));
  });
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  upstreamUrl = `http://127.0.0.1:${(upstream.address() as { port: number }).port}`;

  const capture = (...args: unknown[]): void => void consoleLines.push(args.map(String).join(' '));
  for (const method of ['log', 'info', 'warn', 'error', 'debug'] as const) vi.spyOn(console, method).mockImplementation(capture);
  host = new StudioHost({
    dataDir: root,
    store: 'file',
    settings: parseHostSettings({
      'yukta.http.allow-private': true,
      'yukta.process.enabled': true,
      'yukta.process.allowed-commands': ['/usr/bin/env', '/bin/sh'],
    }),
    env: { YUKTA_SECRET_APIKEY: CANARY_ENV },
    secretStore: new EncryptedSecretStore(root, encryptor),
    onWarning: capture,
    onInternalError: capture,
  });
  server = await createHttpServer({ host, bind: { host: '127.0.0.1', port: 0 } });
  port = (await server.listen()).port;
});

afterAll(async () => {
  vi.restoreAllMocks();
  await new Promise<void>((resolve) => upstream.close(() => resolve()));
  rmSync(root, { recursive: true, force: true });
});

describe('SEC-02 canary secret: 0 occurrences outside the request that needs it', () => {
  it('env and stored secrets reach the HTTP server and the process, and nothing else', async () => {
    let stopStream!: () => void;
    const streamed = readEventStream(new Promise<void>((resolve) => (stopStream = resolve)));
    await new Promise((resolve) => setTimeout(resolve, 50)); // let the stream subscribe before the runs (not a wait for a result)

    expect((await call('secrets.set', { name: 'storetoken', value: CANARY_STORE })).status).toBe(200);
    for (const definition of [ECHO, FAILING_PROCESS, FAILING_HTTP]) expect((await call('workflows.save', { definition })).status).toBe(200);

    const ok = await runToEnd('canary', { url: `${upstreamUrl}/echo` });
    expect(ok.status).toBe('SUCCESS');
    const procFail = await runToEnd('canary-proc-fail');
    expect(procFail.status).toBe('FAILURE');
    const httpFail = await runToEnd('canary-http-fail', { url: `${upstreamUrl}/fail` });
    expect(httpFail.status).toBe('FAILURE');
    // An operator can try to start with the secret reference in the payload: it is never resolved.
    const exfil = await runToEnd('canary-http-fail', { url: `${upstreamUrl}/fail?k=decrypted:apikey` });
    expect(exfil.status).toBe('FAILURE');
    // Control commands leave audit rows: a refused stop of an ended run, and a restart (it runs again, secrets and all).
    await call('control.send', { executionId: ok.executionId, command: { type: 'StopWorkflow' } });
    const restart = await call('control.send', { executionId: ok.executionId, command: { type: 'Restart' } });
    const restarted = (restart.body as { newExecutionId?: string }).newExecutionId;
    expect(restarted, JSON.stringify(restart.body)).toBeTruthy();
    expect(await host.engine.waitForRun(restarted!)).toBe('SUCCESS');

    // The secrets were used: the far end got both, in clear.
    expect(received.filter((r) => r.includes(CANARY_ENV) && r.includes(CANARY_STORE)).length).toBeGreaterThanOrEqual(3);

    // Everything the renderer or a REST client can read.
    const runs = [ok, procFail, httpFail, exfil, { executionId: restarted! }];
    for (const { executionId } of runs) {
      await call('runs.get', { executionId });
      await call('runs.recordedSummary', { executionId });
      await call('control.state', { executionId });
      for (const nodeId of ['t', 'call', 'env', 'p', 'o']) await call('runs.recorded', { executionId, nodeId });
    }
    await call('runs.list', {});
    await call('control.audit', { limit: 1000 });
    await call('secrets.list', {});
    for (const { workflowId } of [ECHO, FAILING_PROCESS, FAILING_HTTP]) {
      await call('workflows.get', { workflowId });
      await call('workflows.versions', { workflowId });
    }
    stopStream();
    const sse = await streamed;
    // Closing flushes every store, so the files below are complete.
    await server.close();
    await host.close();

    // The masks are there, so the searches looked at the right places.
    const responses = seen.join('\n');
    expect(responses).toContain(SECRET_MASK);
    expect(responses).toContain(`token=${SECRET_MASK} store=${SECRET_MASK}`); // the process failure's stderr, masked
    expect(responses).toContain(`Bearer ${SECRET_MASK} ${SECRET_MASK}`); // the HTTP server's echo, masked
    expect(sse).toContain('NODE_STATUS');

    const files = filesUnder(root).filter((f) => !f.endsWith('.db'));
    const onDisk = files.map((f) => readFileSync(f, 'utf8')).join('\n');
    const counts = { console: count(consoleLines.join('\n')), sse: count(sse), responses: count(responses), files: count(onDisk) };
    process.stdout.write(
      `SEC-02 canary: ${JSON.stringify(counts)} occurrences in ${seen.length} API responses, ${sse.length} SSE bytes, ${files.length} data files, ${consoleLines.length} console lines; ${received.length} upstream requests carried it\n`,
    );
    expect(counts).toEqual({ console: 0, sse: 0, responses: 0, files: 0 });
  });
});
