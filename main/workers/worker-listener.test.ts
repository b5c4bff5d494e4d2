import WebSocket from 'ws';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { encodeFrame } from '../../shared/workers/worker-frames';
import { WORKER_PROTOCOL_VERSION } from '../../shared/workers/worker-protocol';
import { makeCertificates, type TestCertificates } from '../test-support/test-certificates';
import { killAll, startWorker, startWorkerHost, TOKEN, type WorkerChild, type WorkerHost } from '../test-support/worker-harness';

/** This file's ports (4591–4599 are this task's; worker-process.test.ts has 4591). */
const PORT = 4593;
const STANDBY_PORT = 4594;
const TLS_PORT = 4595;

let hosts: WorkerHost[] = [];
let children: WorkerChild[] = [];
let certs: TestCertificates;

beforeAll(() => {
  certs = makeCertificates();
});
afterAll(() => certs.remove());
afterEach(async () => {
  await killAll(children);
  children = [];
  for (const h of hosts) await h.close();
  hosts = [];
});

async function host(options: Parameters<typeof startWorkerHost>[0]): Promise<WorkerHost> {
  const h = await startWorkerHost(options);
  hosts.push(h);
  return h;
}

function worker(options: Parameters<typeof startWorker>[0]): WorkerChild {
  const child = startWorker(options);
  children.push(child);
  return child;
}

/** A raw connection to the listener: what it was sent back, and how it closed. */
function raw(url: string, token = TOKEN): Promise<{ ws: WebSocket; received: unknown[]; closed: Promise<{ code: number; reason: string }> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, { headers: { authorization: `Bearer ${token}` } });
    const received: unknown[] = [];
    ws.on('message', (data) => received.push(...(JSON.parse(data.toString()) as unknown[])));
    const closed = new Promise<{ code: number; reason: string }>((done) => ws.on('close', (code, reason) => done({ code, reason: reason.toString() })));
    ws.on('open', () => resolve({ ws, received, closed }));
    ws.on('error', reject);
  });
}

const hello = (name: string, protocol = WORKER_PROTOCOL_VERSION) => ({
  t: 'HELLO',
  protocol,
  name,
  pool: 'p',
  allow: ['WHO'],
  slots: 1,
  window: 4,
  version: 'raw',
});

async function runWho(h: WorkerHost, workflowId: string): Promise<unknown[]> {
  await h.host.engine.saveWorkflow('default', {
    workflowId,
    nodes: [
      { nodeId: 't', type: 'API_TRIGGER' },
      { nodeId: 'remote', type: 'WHO', config: { engine: { placement: { pool: 'p' } } } },
      { nodeId: 'out', type: 'RESULT_TERMINAL' },
    ],
    edges: [
      { source: 't', target: 'remote' },
      { source: 'remote', target: 'out' },
    ],
  });
  const { executionId } = await h.host.engine.startRun({ session: 'default', workflowId, payload: {} });
  expect(await h.host.engine.waitForRun(executionId)).toBe('SUCCESS');
  return h.host.engine.getRun(executionId).results.map((r) => r.payload);
}

describe("SCL-01 the workers' listener refuses what it must, logs it, and stays unharmed", () => {
  it('refuses a wrong token at the upgrade (401); the worker says so and keeps trying', async () => {
    const h = await host({ port: PORT });
    const w = worker({ urls: [h.url], name: 'intruder', pool: 'p', token: 'not-the-token-at-all' });
    await w.line(/refused the connection: HTTP 401 \(wrong or missing token: yukta\.workers\.token\)$/);
    await h.line(/^warn: a worker connection from 127\.0\.0\.1:\d+ was refused: wrong token \(yukta\.workers\.token\)$/);
    await w.line(/^no host took this worker .*; trying again in \d+ ms$/);
    expect(h.host.engine.workersView().workers).toEqual([]);
  });

  it('refuses another protocol version, oversized, malformed, binary and too deep frames; a good worker then registers and runs', async () => {
    const h = await host({ port: PORT, settings: { 'yukta.execution.max-message-bytes': 1024, 'yukta.execution.max-depth': 8 } });
    const old = await raw(h.url);
    old.ws.send(encodeFrame([hello('old', 2)]));
    expect(await old.closed).toEqual({ code: 4001, reason: 'protocol_version' });
    expect(old.received).toEqual([
      { t: 'REFUSED', reason: 'protocol_version', message: `this host speaks worker protocol ${WORKER_PROTOCOL_VERSION}, the worker 2` },
    ]);
    const big = await raw(h.url);
    big.ws.send('x'.repeat(200_000));
    expect((await big.closed).code).toBe(1009);
    const bad = await raw(h.url);
    bad.ws.send('{not json');
    expect((await bad.closed).code).toBe(1007);
    const binary = await raw(h.url);
    binary.ws.send(Buffer.from([1, 2, 3]));
    expect(await binary.closed).toEqual({ code: 1007, reason: 'binary frames are refused' });
    const deep = await raw(h.url);
    deep.ws.send(encodeFrame([hello('deep')]));
    deep.ws.send(encodeFrame([{ t: 'OUTPUT', s: 1, out: { payload: JSON.parse('['.repeat(12) + ']'.repeat(12)) as unknown } }]));
    expect(await deep.closed).toEqual({ code: 1008, reason: 'JSON nested deeper than 8 (yukta.execution.max-depth)' });
    for (const pattern of [
      /refused: protocol_version/,
      /sent a frame over \d+ bytes \(yukta\.execution\.max-message-bytes \+ 64 KiB\); connection dropped/,
      /sent a refused frame: not JSON/,
      /sent a binary frame; connection dropped/,
      /worker "deep" from .* sent a refused frame: JSON nested deeper than 8/,
    ])
      expect(h.lines.some((l) => pattern.test(l))).toBe(true);
    const w = worker({ urls: [h.url], name: 'good', pool: 'p' });
    await w.registered();
    expect(await runWho(h, 'after-refusals')).toEqual([{ ranOn: 'good' }]);
    expect(h.host.engine.workersView().workers.map((x) => x.name)).toEqual(['good']);
  });

  it('a standby refuses the registration (not_leader) and the worker moves on to the next address', async () => {
    const standby = await host({ port: STANDBY_PORT, engine: { scheduler: { isLeader: () => false } } });
    const leader = await host({ port: PORT });
    const w = worker({ urls: [standby.url, leader.url], name: 'w', pool: 'p' });
    await w.registered();
    const refused = w.lines.findIndex((l) => l === `${standby.url} refused this worker: not_leader: this host is a standby: connect to the leader`);
    const registered = w.lines.findIndex((l) => l.startsWith(`registered with ${leader.url} as "w"`));
    expect(refused).toBeGreaterThanOrEqual(0);
    expect(registered).toBeGreaterThan(refused);
    await standby.line(/refused: not_leader/);
    expect(standby.host.engine.workersView().workers).toEqual([]);
    expect(await runWho(leader, 'leader')).toEqual([{ ranOn: 'w' }]);
  });
});

describe('SCL-01 TLS: wss with the host name verified, and mutual TLS', () => {
  it('a worker that trusts the CA and presents its certificate registers over wss and runs attempts', async () => {
    const h = await host({ port: TLS_PORT, tls: { cert: certs.hostCert, key: certs.hostKey, ca: certs.ca } });
    expect(h.url).toBe(`wss://127.0.0.1:${TLS_PORT}/workers`);
    const tlsEnv = { YUKTA_WORKERS_TLS_CA: certs.ca, YUKTA_WORKERS_TLS_CERT: certs.workerCert, YUKTA_WORKERS_TLS_KEY: certs.workerKey };
    const w = worker({ urls: [`wss://localhost:${TLS_PORT}/workers`], name: 'secure', pool: 'p', env: tlsEnv });
    await w.registered();
    expect(await runWho(h, 'tls')).toEqual([{ ranOn: 'secure' }]);
    // The certificate names localhost, not 127.0.0.1: the name is verified and the connection refused.
    const mismatch = worker({ urls: [`wss://127.0.0.1:${TLS_PORT}/workers`], name: 'mismatch', pool: 'p', env: tlsEnv });
    await mismatch.line(
      /^cannot connect to wss:\/\/127\.0\.0\.1:\d+\/workers: Hostname\/IP does not match certificate's altnames: IP: 127\.0\.0\.1 is not in the cert's list/,
    );
    // Without a client certificate the host refuses the TLS handshake (mutual TLS).
    const anonymous = worker({ urls: [`wss://localhost:${TLS_PORT}/workers`], name: 'anonymous', pool: 'p', env: { YUKTA_WORKERS_TLS_CA: certs.ca } });
    await anonymous.line(/^cannot connect to wss:\/\/localhost:\d+\/workers: /);
    await h.line(/a worker connection from .* failed TLS: /);
    expect(h.host.engine.workersView().workers.map((x) => x.name)).toEqual(['secure']);
  });
});
