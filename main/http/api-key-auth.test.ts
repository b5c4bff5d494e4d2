import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../engine/index';
import { OPERATION_NAMES, STUDIO_API, type OperationName } from '../../shared/api/contract';
import { pathParams, toHttpRequest } from '../../shared/api/http-routes';
import { roleAllows, type Role } from '../../shared/api/roles';
import { sha256 } from '../host/api-keys';
import { tempDataDir } from '../host/host-test-support';
import { parseHostSettings, type HostSettings } from '../host/host-settings';
import { StudioHost } from '../host/studio-host';
import { createHttpServer, type StudioHttpServer } from './http-server';

const LOCAL = { host: '127.0.0.1:4310' };
const KEYS = { viewer: 'viewer-key-0123456789', operator: 'operator-key-0123456789', admin: 'admin-key-0123456789', team: 'team-key-0123456789abc' };
const VERSION = 'a'.repeat(64);
const open: Array<{ host: StudioHost; server: StudioHttpServer }> = [];

afterEach(async () => {
  for (const { host, server } of open.splice(0)) {
    await server.close();
    await host.close();
  }
});

const KEYED: Partial<HostSettings> = {
  'yukta.api-keys': [
    { name: 'viewer', key: KEYS.viewer, role: 'VIEWER' },
    { name: 'operator', key: `sha256:${sha256(KEYS.operator).toString('hex')}`, role: 'OPERATOR' },
    { name: 'admin', key: KEYS.admin, role: 'ADMIN' },
    { name: 'team', key: KEYS.team, role: 'ADMIN', sessions: ['team'] },
  ],
};

const WAITING = {
  workflowId: 'wait',
  nodes: [
    { nodeId: 't', type: 'API_TRIGGER' },
    { nodeId: 'ok', type: 'WAIT_FOR_SIGNAL', config: { signal: 'go' } },
    { nodeId: 'o', type: 'CONSOLE_TERMINAL' },
  ],
  edges: [
    { source: 't', target: 'ok' },
    { source: 'ok', target: 'o' },
  ],
};

async function serve(settings: Partial<HostSettings> = {}, dataDir?: string) {
  const host = new StudioHost({
    ...(dataDir ? { dataDir, store: 'memory' as const } : {}),
    settings: parseHostSettings(settings as Record<string, unknown>),
    env: {},
    engine: { clock: new ManualClock(0), scheduler: { limits: { shutdownTimeoutMs: 0 } } },
  });
  const server = await createHttpServer({ host });
  open.push({ host, server });
  const call = async (operation: OperationName, input: Record<string, unknown>, headers: Record<string, string> = {}) => {
    const parsed = STUDIO_API[operation].input.safeParse(input);
    const req = toHttpRequest(operation, {
      ...Object.fromEntries(pathParams(operation).map((p) => [p, 'x'])),
      ...(parsed.success ? (parsed.data as Record<string, unknown>) : input),
    });
    const res = await server.app.inject({ method: req.method, url: req.url, headers: { ...LOCAL, ...headers }, ...(req.body ? { payload: req.body } : {}) });
    return { status: res.statusCode, body: res.json() as Record<string, unknown> & { error?: { code: string; message: string } } };
  };
  return { host, server, call };
}

/** One valid-looking input per operation (an operation added later gets `{}`: its role is checked before its input). */
function inputs(executionId: string): Partial<Record<OperationName, Record<string, unknown>>> {
  return {
    'workflows.get': { workflowId: 'wait' },
    'workflows.save': { definition: WAITING },
    'workflows.validate': { definition: WAITING },
    'workflows.versions': { workflowId: 'wait' },
    'workflows.getVersion': { workflowId: 'wait', version: VERSION },
    'workflows.restore': { workflowId: 'wait', version: VERSION },
    'workflows.diff': { workflowId: 'wait', from: VERSION, to: VERSION },
    'workflows.delete': { workflowId: 'gone' },
    'runs.start': { workflowId: 'wait', payload: {} },
    'runs.get': { executionId },
    'runs.setPriority': { executionId, priority: 1 },
    'scheduler.setLimits': { maxConcurrent: 100 },
    'control.send': { executionId, command: { type: 'PauseNode', nodeId: 'o' } },
    'control.state': { executionId },
    'control.audit': { executionId },
    'signals.send': { executionId, nodeId: 'ok', decision: 'REJECT' },
    'supervisors.getRules': { session: 'default' },
    'supervisors.setRules': { session: 'default', rules: [] },
    'plugins.control': { session: 'default', workflowId: 'wait', nodeId: 'ok', kind: 'heartbeat' },
    'sessions.create': { session: 'made' },
    'sessions.rename': { session: 'made', newSession: 'renamed' },
    'sessions.delete': { session: 'none-such' },
    'sessions.applyConfig': { session: 'applied' },
    'apiKeys.create': { name: `k${Math.random().toString(36).slice(2, 8)}`, role: 'VIEWER' },
    'apiKeys.revoke': { name: 'none-such' },
    'secrets.set': { name: 'none', value: 'x' },
    'secrets.delete': { name: 'none' },
  };
}

type CallerKind = { label: string; headers: Record<string, string>; role: Role | null };

const KEYED_CALLERS: CallerKind[] = [
  { label: 'no key', headers: {}, role: null },
  { label: 'wrong key', headers: { authorization: 'Bearer not-a-key-at-all-000' }, role: null },
  { label: 'viewer (Bearer)', headers: { authorization: `Bearer ${KEYS.viewer}` }, role: 'VIEWER' },
  { label: 'operator (sha256 config, X-API-Key)', headers: { 'x-api-key': KEYS.operator }, role: 'OPERATOR' },
  { label: 'admin (Bearer)', headers: { authorization: `Bearer ${KEYS.admin}` }, role: 'ADMIN' },
];

const COMMAND_OPERATIONS = new Set<OperationName>(['control.send', 'signals.send', 'runs.setPriority', 'scheduler.setLimits']);

/**
 * The least role each operation needs, written from SPEC.md SEC-01 — "VIEWER reads; OPERATOR also starts,
 * controls and recovers runs; ADMIN everything (sessions, workflows, limits)" — and ADM-03 (priority:
 * OPERATOR, limits: ADMIN), never read from the contract's `role` fields: the matrix below checks the
 * server against this table. A new operation fails to compile until it is placed here.
 */
const SPEC_ROLES: { readonly [K in OperationName]: Role } = {
  // VIEWER: reads.
  'nodeTypes.list': 'VIEWER',
  'workflows.list': 'VIEWER',
  'workflows.get': 'VIEWER',
  'workflows.validate': 'VIEWER', // checks a posted graph, stores nothing
  'workflows.versions': 'VIEWER',
  'workflows.getVersion': 'VIEWER',
  'workflows.diff': 'VIEWER',
  'runs.get': 'VIEWER',
  'runs.list': 'VIEWER',
  'runs.recorded': 'VIEWER',
  'runs.recordedSummary': 'VIEWER',
  'scheduler.get': 'VIEWER',
  'metrics.get': 'VIEWER',
  'ha.status': 'VIEWER', // SCL-02: leader or standby, who leads
  'triggers.list': 'VIEWER',
  'control.state': 'VIEWER',
  'control.audit': 'VIEWER',
  'approvals.list': 'VIEWER',
  'supervisors.list': 'VIEWER',
  'supervisors.getRules': 'VIEWER',
  'sessions.list': 'VIEWER',
  'auth.whoami': 'VIEWER',
  'runs.wait': 'VIEWER', // reads a run once it ends
  'breakpoints.get': 'VIEWER',
  'settings.get': 'VIEWER', // CFG-01: every setting with its source, secrets masked
  'workers.list': 'VIEWER', // SCL-01: pools and connected workers
  'workers.attempts': 'VIEWER', // SCL-01: which worker ran each attempt
  // OPERATOR: starts, controls and recovers runs.
  'runs.start': 'OPERATOR',
  'runs.resume': 'OPERATOR',
  'runs.setPriority': 'OPERATOR',
  'control.send': 'OPERATOR',
  'signals.send': 'OPERATOR',
  'plugins.control': 'OPERATOR',
  'breakpoints.set': 'OPERATOR', // the debugger's breakpoints steer runs; they change no definition
  // ADMIN: everything else — workflows, sessions, limits, supervisor rules, keys and secrets.
  'workflows.save': 'ADMIN',
  'workflows.restore': 'ADMIN',
  'workflows.delete': 'ADMIN',
  'scheduler.setLimits': 'ADMIN',
  'settings.set': 'ADMIN', // CFG-01
  'supervisors.setRules': 'ADMIN',
  'sessions.create': 'ADMIN',
  'sessions.rename': 'ADMIN',
  'sessions.delete': 'ADMIN',
  'sessions.applyConfig': 'ADMIN',
  'apiKeys.list': 'ADMIN',
  'apiKeys.create': 'ADMIN',
  'apiKeys.revoke': 'ADMIN',
  'secrets.list': 'ADMIN',
  'secrets.set': 'ADMIN',
  'secrets.delete': 'ADMIN',
};

describe('SEC-01 roles matrix: every operation × role × with and without a key', () => {
  it('allows exactly what SPEC.md SEC-01 says (the literal table, 100 % match) and audits every command under key:<name>', async () => {
    let cells = 0;
    let matches = 0;
    let audited = 0;
    const mismatches: string[] = [];
    for (const kind of KEYED_CALLERS) {
      const { host, call } = await serve(KEYED);
      const admin = { authorization: `Bearer ${KEYS.admin}` };
      expect((await call('workflows.save', { definition: WAITING }, admin)).status).toBe(200);
      const executionId = (await call('runs.start', { workflowId: 'wait', payload: {} }, admin)).body.executionId as string;
      const input = inputs(executionId);
      let commands = 0;
      for (const operation of OPERATION_NAMES) {
        const { status } = await call(operation, input[operation] ?? {}, kind.headers);
        const expected = kind.role === null ? 401 : roleAllows(kind.role, SPEC_ROLES[operation]) ? 'allowed' : 403;
        const actual = status === 401 || status === 403 ? status : 'allowed';
        cells += 1;
        if (actual === expected) matches += 1;
        else mismatches.push(`${kind.label} ${operation}: expected ${expected}, got ${status}`);
        if (actual === 'allowed' && COMMAND_OPERATIONS.has(operation)) commands += 1;
      }
      if (kind.role) {
        const actor = `key:${kind.label.split(' ')[0]}`;
        const audit = await call('control.audit', { actor, limit: 1000 }, admin);
        const rows = (audit.body.entries as unknown[]).length;
        const runRows = (await call('control.audit', { executionId, actor, limit: 1000 }, admin)).body.entries as unknown[];
        const schedulerRows = rows - runRows.length;
        expect({ actor, rows: runRows.length + schedulerRows }).toEqual({ actor, rows: commands });
        audited += commands;
      }
      if (host.engine.liveRun(executionId)) host.engine.cancelRun(executionId);
    }
    // Without any key: the loopback user is ADMIN; a foreign Host is refused for every operation.
    const { host, call } = await serve();
    await call('workflows.save', { definition: WAITING });
    const executionId = (await call('runs.start', { workflowId: 'wait', payload: {} })).body.executionId as string;
    const input = inputs(executionId);
    // Creating the first key turns key checks on, so apiKeys.create comes last, after the foreign-Host pass.
    const ordered = [...OPERATION_NAMES.filter((o) => o !== 'apiKeys.create'), 'apiKeys.create' as const];
    for (const [headers, expected] of [
      [{ host: 'evil.example:4310' }, 403],
      [{}, 'allowed'],
    ] as const) {
      for (const operation of ordered) {
        const { status } = await call(operation, input[operation] ?? {}, headers);
        const actual = status === 401 || status === 403 ? status : 'allowed';
        cells += 1;
        if (actual === expected) matches += 1;
        else mismatches.push(`no keys ${JSON.stringify(headers)} ${operation}: expected ${expected}, got ${status}`);
      }
    }
    if (host.engine.liveRun(executionId)) host.engine.cancelRun(executionId);
    expect(mismatches).toEqual([]);
    expect(matches / cells).toBe(1);
    expect(cells).toBe(OPERATION_NAMES.length * (KEYED_CALLERS.length + 2));
    expect(audited).toBeGreaterThanOrEqual(7); // operator 3 run commands, admin 4 with SetLimits
    console.log(`SEC-01 roles matrix: ${matches}/${cells} cells match (${OPERATION_NAMES.length} operations); audit rows = commands (${audited})`);
  });

  it('with keys set the Host/Origin filter gives way to the key: any Host with a valid key, none without', async () => {
    const { call } = await serve(KEYED);
    expect((await call('nodeTypes.list', {}, { host: 'studio.example', authorization: `Bearer ${KEYS.viewer}` })).status).toBe(200);
    const refused = await call('nodeTypes.list', {}, { host: 'studio.example' });
    expect(refused).toMatchObject({ status: 401, body: { error: { code: 'UNAUTHORIZED' } } });
    expect((await call('nodeTypes.list', {}, { authorization: `Basic ${KEYS.viewer}` })).status).toBe(401);
  });
});

describe('SEC-01 session scoping: a key limited to sessions only touches them', () => {
  it('refuses other sessions, hides their runs, filters listings and refuses global operations', async () => {
    const { call } = await serve(KEYED);
    const admin = { authorization: `Bearer ${KEYS.admin}` };
    const team = { authorization: `Bearer ${KEYS.team}` };
    await call('workflows.save', { definition: WAITING }, admin);
    const otherRun = (await call('runs.start', { workflowId: 'wait' }, admin)).body.executionId as string;
    expect((await call('workflows.save', { session: 'team', definition: WAITING }, team)).status).toBe(200);
    const ownRun = (await call('runs.start', { session: 'team', workflowId: 'wait' }, team)).body.executionId as string;

    expect((await call('workflows.get', { workflowId: 'wait' }, team)).status).toBe(403);
    expect((await call('workflows.get', { session: 'team', workflowId: 'wait' }, team)).status).toBe(200);
    expect((await call('runs.get', { executionId: otherRun }, team)).status).toBe(404);
    expect((await call('runs.get', { executionId: ownRun }, team)).status).toBe(200);
    expect((await call('control.send', { executionId: otherRun, command: { type: 'PauseWorkflow' } }, team)).status).toBe(404);
    const runs = (await call('runs.list', {}, team)).body as unknown as Array<{ executionId: string }>;
    expect(runs.map((r) => r.executionId)).toEqual([ownRun]);
    const workflows = (await call('workflows.list', {}, team)).body as unknown as Array<{ session: string }>;
    expect(workflows.map((w) => w.session)).toEqual(['team']);
    expect((await call('sessions.rename', { session: 'team', newSession: 'default2' }, team)).status).toBe(403);
    expect((await call('control.audit', {}, team)).status).toBe(403);
    expect((await call('scheduler.get', {}, team)).status).toBe(403);
    // An ADMIN key limited to a session cannot mint itself an unlimited key.
    expect((await call('apiKeys.create', { name: 'escalate', role: 'ADMIN' }, team)).status).toBe(403);
  });
});

describe('SEC-01 keys managed in Settings (STU-07): created and shown once, rotated, revoked', () => {
  it('a created key works at once, is listed without its value, is stored as a hash only, and stops working when revoked', async () => {
    const dir = await tempDataDir();
    const { call } = await serve({ 'yukta.api-key': 'the-one-admin-key-000' }, dir);
    const root = { authorization: 'Bearer the-one-admin-key-000' };
    const created = await call('apiKeys.create', { name: 'ci', role: 'OPERATOR' }, root);
    expect(created.status).toBe(200);
    const key = created.body.key as string;
    expect(key).toMatch(/^yk_[A-Za-z0-9_-]{40,}$/);
    const listed = JSON.stringify((await call('apiKeys.list', {}, root)).body);
    expect(listed).not.toContain(key);
    expect(listed).toContain('"name":"ci"');
    expect(listed).toContain('"name":"default"');
    const stored = readFileSync(join(dir, 'api-keys.json'), 'utf8');
    expect(stored).not.toContain(key);
    expect(stored).toContain(sha256(key).toString('hex'));
    // Rotation: a second key works next to the first; revoking the old one leaves the new one working.
    const next = (await call('apiKeys.create', { name: 'ci-2', role: 'OPERATOR' }, root)).body.key as string;
    expect((await call('runs.list', {}, { 'x-api-key': key })).status).toBe(200);
    expect((await call('runs.list', {}, { 'x-api-key': next })).status).toBe(200);
    expect((await call('apiKeys.revoke', { name: 'ci' }, root)).status).toBe(200);
    expect((await call('runs.list', {}, { 'x-api-key': key })).status).toBe(401);
    expect((await call('runs.list', {}, { 'x-api-key': next })).status).toBe(200);
    // Configured keys are removed from their configuration, not from the studio.
    expect((await call('apiKeys.revoke', { name: 'default' }, root)).status).toBe(409);
    // A restart reads the stored hashes back.
    const again = await serve({ 'yukta.api-key': 'the-one-admin-key-000' }, dir);
    expect((await again.call('runs.list', {}, { 'x-api-key': next })).status).toBe(200);
  });
});
