import { afterEach, describe, expect, it } from 'vitest';
import { testDatabase } from '../../engine/test-support/postgres-test-database';
import { api, CuttableProxy, haStatus, killHost, metricTotal, pollFor, rawStatus, serveHa, type ServedHost } from './ha-test-support';

/** A short lease keeps the process-level tests quick; a third of it is the renewal period. */
const LEASE_MS = 1500;
const PERIOD_MS = 500;
/** Slack on a loaded 2-core machine: process scheduling, HTTP polling every 20 ms, the takeover's own round trips. */
const SLACK_MS = 700;
const PROXY_PORT = 4620;

const hosts: ServedHost[] = [];
const proxies: CuttableProxy[] = [];
afterEach(async () => {
  for (const p of proxies.splice(0)) await p.close();
  await Promise.all(hosts.splice(0).map(killHost));
});

async function pair(env: Record<string, string> = {}, urlOfA?: (url: string) => string) {
  const db = await testDatabase();
  const schema = await db.freshSchema();
  const a = await serveHa('host-a', { url: urlOfA ? urlOfA(db.url) : db.url, schema, leaseMs: LEASE_MS, env });
  hosts.push(a);
  const b = await serveHa('host-b', { url: db.url, schema, leaseMs: LEASE_MS, env });
  hosts.push(b);
  return { a, b, db, schema };
}

const QUICK = {
  workflowId: 'quick',
  nodes: [
    { nodeId: 's', type: 'API_TRIGGER' },
    { nodeId: 'out', type: 'CONSOLE_TERMINAL' },
  ],
  edges: [{ source: 's', target: 'out' }],
};
const SLOW = {
  workflowId: 'slow',
  nodes: [
    { nodeId: 's', type: 'API_TRIGGER' },
    { nodeId: 'wait', type: 'DELAY', config: { ms: 4000 } },
    { nodeId: 'out', type: 'CONSOLE_TERMINAL' },
  ],
  edges: [
    { source: 's', target: 'wait' },
    { source: 'wait', target: 'out' },
  ],
};

const start = (host: ServedHost, workflowId: string, key?: string) =>
  api(host.url, 'POST', '/api/workflow/start', { workflowId, payload: {} }, key ? { 'idempotency-key': key } : {});

describe('SCL-02 active/standby: two yukta serve processes on one database', () => {
  it('kill -9 of the leader during 100 keyed starts: the standby leads within lease + one renewal period, every acknowledged start is there, re-sent keys return the same ids', async () => {
    const { a, b } = await pair();
    expect(await haStatus(a)).toMatchObject({ role: 'leader', fence: 1, leader: { name: 'host-a' } });
    expect(await haStatus(b)).toMatchObject({ role: 'standby', fence: null, leader: { name: 'host-a' } });
    expect((await api(a.url, 'POST', '/api/workflows', { definition: QUICK })).status).toBe(200);
    // The standby reads (the definition the leader saved) and refuses starts, naming the leader.
    expect((await api(b.url, 'GET', '/api/workflows/default/quick')).status).toBe(200);
    const refused = await start(b, 'quick', 'on-standby');
    expect(refused.status).toBe(503);
    expect((refused.json.error as { message: string }).message).toMatch(/standby \(read-only\); leader is host-a: start the run on the leader/);
    expect(await metricTotal(b, 'yukta_executions_rejected_total', 'reason="not_leader"')).toBe(1);
    // What the pair shares is changed on the leader only: a save on the standby is refused, naming it.
    const save = await api(b.url, 'POST', '/api/workflows', { definition: { ...QUICK, description: 'from the standby' } });
    expect([save.status, (save.json.error as { message: string }).message]).toEqual([
      503,
      'workflows.save refused: this server is a standby (read-only); leader is host-a: send it to the leader',
    ]);
    // Without keys the standby holds Host and Origin to loopback and same-origin, as the leader does (SEC-01).
    const body = JSON.stringify({ workflowId: 'quick', payload: {} });
    expect(await rawStatus(b.url, 'POST', '/api/workflow/start', { origin: 'http://evil.example' }, body)).toBe(403);
    expect(await rawStatus(b.url, 'POST', '/api/workflow/start', { host: 'evil.example' }, body)).toBe(403);
    expect(await rawStatus(b.url, 'GET', '/api/ha', { host: 'evil.example' })).toBe(403);

    const acknowledged = new Map<string, string>();
    let killedAt = 0;
    for (let i = 0; i < 100; i++) {
      if (i === 50) {
        a.child.kill('SIGKILL');
        killedAt = performance.now();
      }
      const res = await start(a, 'quick', `k${i}`).catch(() => null);
      if (res?.status === 200) acknowledged.set(`k${i}`, res.json.executionId as string);
    }
    expect(acknowledged.size).toBeGreaterThanOrEqual(50);
    await pollFor('host-b leads', LEASE_MS + PERIOD_MS + SLACK_MS, async () => (await haStatus(b)).role === 'leader');
    const tookOverMs = performance.now() - killedAt;
    expect(tookOverMs).toBeLessThan(LEASE_MS + PERIOD_MS + SLACK_MS);
    expect(await haStatus(b)).toMatchObject({ role: 'leader', fence: 2, leader: { name: 'host-b' } });

    // Every key again, on the new leader: an acknowledged one returns its id; the others start once.
    const resent = new Map<string, string>();
    for (let i = 0; i < 100; i++) {
      const res = await pollFor(`start k${i} on host-b`, 10_000, async () => {
        const r = await start(b, 'quick', `k${i}`);
        return r.status === 200 ? r : null;
      });
      resent.set(`k${i}`, res.json.executionId as string);
    }
    for (const [key, id] of acknowledged) expect(resent.get(key), key).toBe(id);
    for (const [key, id] of resent) expect((await start(b, 'quick', key)).json.executionId, key).toBe(id);
    for (const id of acknowledged.values()) expect((await api(b.url, 'GET', `/api/executions/${id}`)).status, id).toBe(200);
  });

  it("SIGSTOP of the leader past its lease: the standby takes over; after SIGCONT the old leader's writes are refused and it steps down (counted); its run is ABORTED on the new leader", async () => {
    const { a, b } = await pair();
    expect((await api(a.url, 'POST', '/api/workflows', { definition: SLOW })).status).toBe(200);
    const run = (await start(a, 'slow')).json.executionId as string;
    a.child.kill('SIGSTOP');
    await pollFor('host-b leads', LEASE_MS + PERIOD_MS + SLACK_MS * 2, async () => (await haStatus(b)).role === 'leader');
    await pollFor('the run is ABORTED on host-b', 10_000, async () => (await api(b.url, 'GET', `/api/executions/${run}`)).json.status === 'ABORTED');
    a.child.kill('SIGCONT');
    const deposed = await pollFor('host-a steps down with a refused write', 10_000, async () => {
      const s = await haStatus(a);
      return s.role === 'deposed' && s.refusedWrites > 0 ? s : null;
    });
    expect(deposed.leader).toBeNull();
    expect(await metricTotal(a, 'yukta_ha_step_downs_total')).toBe(1);
    expect(await metricTotal(a, 'yukta_ha_refused_writes_total')).toBeGreaterThanOrEqual(1);
    expect((await start(a, 'slow')).status).toBe(503);
    // The DELAY ended on host-a after the takeover: none of that reached the database.
    expect((await api(b.url, 'GET', `/api/executions/${run}`)).json.status).toBe('ABORTED');
  });

  it("cutting the leader's database connections (a TCP proxy): it stops leading before the lease runs out, so before the standby takes over", async () => {
    const db = await testDatabase();
    const target = new URL(db.url);
    const proxy = await CuttableProxy.open(PROXY_PORT, { host: target.hostname, port: Number(target.port) });
    proxies.push(proxy);
    const { a, b } = await pair({}, (url) => {
      const u = new URL(url);
      u.port = String(PROXY_PORT);
      return u.toString();
    });
    expect((await haStatus(a)).role).toBe('leader');
    proxy.cut();
    const cutAt = performance.now();
    let aStoppedAt = 0;
    let bLedAt = 0;
    await pollFor('host-b leads', LEASE_MS * 2 + SLACK_MS * 2, async () => {
      if (aStoppedAt === 0 && (await haStatus(a)).role !== 'leader') aStoppedAt = performance.now();
      if (bLedAt === 0 && (await haStatus(b)).role === 'leader') bLedAt = performance.now();
      return bLedAt > 0 && aStoppedAt > 0;
    });
    expect(aStoppedAt).toBeLessThan(bLedAt);
    expect(aStoppedAt - cutAt).toBeLessThan(LEASE_MS + SLACK_MS);
    expect(await metricTotal(a, 'yukta_ha_step_downs_total', 'reason="expired"')).toBe(1);
    expect((await start(a, 'quick')).status).toBe(503);
  });

  it('keys and roles behave the same on a standby: no key 401, a VIEWER reads and may not start (403), an OPERATOR is refused not_leader (503)', async () => {
    const keys = [
      { name: 'viewer', key: 'viewer-key-0123456789abcdef', role: 'VIEWER' },
      { name: 'operator', key: 'operator-key-0123456789abcdef', role: 'OPERATOR' },
    ];
    const { b } = await pair({ YUKTA_API_KEYS: JSON.stringify(keys) });
    const as = (key: string) => ({ authorization: `Bearer ${key}` });
    expect((await api(b.url, 'GET', '/api/ha')).status).toBe(401);
    const viewer = await api(b.url, 'GET', '/api/ha', undefined, as(keys[0]!.key));
    expect(viewer).toMatchObject({ status: 200, json: { role: 'standby', leader: { name: 'host-a' } } });
    expect((await api(b.url, 'POST', '/api/workflow/start', { workflowId: 'quick' }, as(keys[0]!.key))).status).toBe(403);
    const operator = await api(b.url, 'POST', '/api/workflow/start', { workflowId: 'quick' }, as(keys[1]!.key));
    expect(operator.status).toBe(503);
    expect((operator.json.error as { message: string }).message).toMatch(/leader is host-a/);
    // A resume is refused before the standby looks the run up (it may be the leader's).
    expect((await api(b.url, 'POST', '/api/executions/any-run/resume', {}, as(keys[1]!.key))).status).toBe(503);
    expect(await metricTotal(b, 'yukta_executions_rejected_total', 'reason="not_leader"', as(keys[0]!.key))).toBe(2);
  });

  it("with yukta.restart.auto-resume=true the old leader's unfinished run is ABORTED at takeover and resumes from its checkpoints on the new leader", async () => {
    const { a, b } = await pair({ YUKTA_RESTART_AUTO_RESUME: 'true' });
    expect((await api(a.url, 'POST', '/api/workflows', { definition: SLOW })).status).toBe(200);
    const run = (await start(a, 'slow')).json.executionId as string;
    await pollFor('the DELAY runs on host-a', 5_000, async () => (await api(a.url, 'GET', `/api/executions/${run}`)).json.status === 'RUNNING');
    a.child.kill('SIGKILL');
    await pollFor('host-b leads', LEASE_MS + PERIOD_MS + SLACK_MS, async () => (await haStatus(b)).role === 'leader');
    const runs = await pollFor('the resumed run succeeds on host-b', 15_000, async () => {
      const list = (await api(b.url, 'GET', '/api/executions?workflowId=slow')).json as unknown as { executionId: string; status: string }[];
      return list.length === 2 && list.some((r) => r.status === 'SUCCESS') ? list : null;
    });
    expect(runs.find((r) => r.executionId === run)?.status).toBe('ABORTED');
    const resumed = runs.find((r) => r.executionId !== run)!;
    expect(resumed.status).toBe('SUCCESS');
  });
});
