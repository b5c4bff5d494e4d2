import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock, type EngineOptions } from '../../engine/index';
import type { Role } from '../../shared/api/roles';
import { StudioHost } from '../host/studio-host';
import { eventFilterFromQuery } from './event-stream';
import { createHttpServer, type StudioHttpServer } from './http-server';

const LOCAL = { host: '127.0.0.1:4310' };
const open: Array<{ host: StudioHost; server: StudioHttpServer }> = [];

afterEach(async () => {
  for (const { host, server } of open.splice(0)) {
    await server.close();
    await host.close();
  }
});

type Body = Record<string, unknown> & { error?: Record<string, unknown> };

/** A server on a manual clock (runs stay where they are); the caller's role comes from `x-test-role`. */
async function serve(engine: Omit<EngineOptions, 'definitions'> = {}) {
  const host = new StudioHost({ engine: { clock: new ManualClock(0), scheduler: { limits: { shutdownTimeoutMs: 0 } }, ...engine } });
  const server = await createHttpServer({
    host,
    resolveCaller: (request) => {
      const role = (request.headers['x-test-role'] as Role | undefined) ?? 'ADMIN';
      return { actor: `key:${role.toLowerCase()}`, role };
    },
  });
  open.push({ host, server });
  const call = async (method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown, role: Role = 'ADMIN') => {
    const res = await server.app.inject({
      method,
      url,
      headers: { ...LOCAL, 'x-test-role': role },
      ...(payload ? { payload: payload as Record<string, unknown> } : {}),
    });
    return { status: res.statusCode, body: res.json() as Body };
  };
  const definition = {
    workflowId: 'approval',
    nodes: [
      { nodeId: 't', type: 'API_TRIGGER' },
      { nodeId: 'd', type: 'DELAY', config: { ms: 10 } },
      { nodeId: 'ok', type: 'WAIT_FOR_SIGNAL', config: { signal: 'manager' } },
      { nodeId: 'o', type: 'CONSOLE_TERMINAL' },
    ],
    edges: [
      { source: 't', target: 'd' },
      { source: 'd', target: 'ok' },
      { source: 'ok', target: 'o' },
    ],
  };
  expect((await call('POST', '/api/workflows', { definition })).status).toBe(200);
  const start = async () => (await call('POST', '/api/workflow/start', { workflowId: 'approval', payload: { order: 1 } })).body.executionId as string;
  const settle = async () => {
    for (let i = 0; i < 20; i++) await new Promise<void>((resolve) => setImmediate(resolve));
  };
  return { host, call, start, settle, clock: host.engine.clock as ManualClock };
}

describe('CTL-01 over REST', () => {
  it('POST /api/executions/{id}/control applies a command (OPERATOR); GET /api/control/audit lists it with the key as actor', async () => {
    const { call, start } = await serve();
    const id = await start();
    const applied = await call('POST', `/api/executions/${id}/control`, { command: { type: 'PauseNode', nodeId: 'd' } }, 'OPERATOR');
    expect(applied).toMatchObject({ status: 200, body: { executionId: id, command: 'PauseNode' } });
    const state = await call('GET', `/api/executions/${id}/control`, undefined, 'VIEWER');
    expect((state.body.nodes as Array<{ nodeId: string; paused: boolean }>).find((n) => n.nodeId === 'd')!.paused).toBe(true);
    const viewer = await call('POST', `/api/executions/${id}/control`, { command: { type: 'PauseWorkflow' } }, 'VIEWER');
    expect(viewer.status).toBe(403);
    const bad = await call('POST', `/api/executions/${id}/control`, { command: { type: 'Step', nodeId: 'd', count: -1 } });
    expect(bad).toMatchObject({ status: 400, body: { error: { code: 'BAD_INPUT', path: 'command.count' } } });
    const unknown = await call('POST', '/api/executions/nope/control', { command: { type: 'PauseWorkflow' } });
    expect(unknown.status).toBe(404);
    const audit = await call('GET', `/api/control/audit?executionId=${id}&limit=10`, undefined, 'VIEWER');
    expect(audit.body).toEqual({ total: 1, entries: [{ runId: id, type: 'CONTROL_APPLIED', status: 'PauseNode', actor: 'key:operator', at: 0 }] });
  });

  it('SetLimits as a command needs ADMIN; limit and priority routes go through the same audited pipeline', async () => {
    const { call, start } = await serve({ scheduler: { limits: { shutdownTimeoutMs: 0, maxConcurrent: 1 } } });
    const limits = { command: { type: 'SetLimits', limits: { maxConcurrent: 2 } } };
    expect((await call('POST', '/api/executions/scheduler/control', limits, 'OPERATOR')).status).toBe(403);
    expect((await call('POST', '/api/executions/scheduler/control', limits, 'ADMIN')).body).toMatchObject({
      command: 'SetLimits',
      value: { maxConcurrent: 2 },
    });
    expect((await call('POST', '/api/scheduler/limits', { maxConcurrent: 1 })).body).toMatchObject({ maxConcurrent: 1 });
    await start();
    const queued = await start();
    expect((await call('POST', `/api/executions/${queued}/priority`, { priority: 3 }, 'OPERATOR')).body).toMatchObject({
      executionId: queued,
      priority: 3,
      position: 1,
    });
    const audit = await call('GET', '/api/control/audit?limit=10');
    expect((audit.body.entries as Array<{ runId: string; status: string }>).map((e) => `${e.runId === queued ? 'queued' : e.runId} ${e.status}`)).toEqual([
      'queued SetPriority',
      'scheduler SetLimits',
      'scheduler SetLimits',
    ]);
  });

  it('a reviewer refusal is 403 FORBIDDEN and audited', async () => {
    const { call, start } = await serve({
      control: { reviewers: [{ id: 'no-stop', review: (r) => (r.command.type === 'StopWorkflow' ? { allow: false, reason: 'frozen' } : { allow: true }) }] },
    });
    const id = await start();
    const refused = await call('POST', `/api/executions/${id}/control`, { command: { type: 'StopWorkflow', mode: 'KILL' } });
    expect(refused).toMatchObject({ status: 403, body: { error: { code: 'FORBIDDEN', message: 'StopWorkflow refused: frozen (reviewer no-stop)' } } });
    const audit = await call('GET', `/api/control/audit?executionId=${id}&type=CONTROL_REJECTED`);
    expect(audit.body).toMatchObject({ total: 1 });
  });
});

describe('CTL-05 over REST', () => {
  it('GET /api/approvals lists open approvals; POST /api/executions/{id}/signal answers ACCEPTED or QUEUED; 409 for an unregistered node', async () => {
    const { call, start, settle, clock } = await serve();
    const id = await start();
    await settle();
    const early = await call('POST', `/api/executions/${id}/signal`, { nodeId: 'ok', data: { note: 'pre-approved' } }, 'OPERATOR');
    expect(early).toMatchObject({ status: 200, body: { signal: 'QUEUED' } });
    await clock.advanceAsync(10);
    expect((await call('GET', '/api/executions/' + id)).body.status).toBe('SUCCESS');
    const second = await start();
    await clock.advanceAsync(10);
    const approvals = await call('GET', '/api/approvals', undefined, 'VIEWER');
    expect(approvals.body).toMatchObject([{ executionId: second, nodeId: 'ok', signal: 'manager', payload: { order: 1 } }]);
    expect((await call('POST', `/api/executions/${second}/signal`, { nodeId: 'd' })).status).toBe(409);
    expect((await call('POST', '/api/executions/nobody/signal', { nodeId: 'ok' })).status).toBe(404);
    const accepted = await call('POST', `/api/executions/${second}/signal`, { nodeId: 'ok', decision: 'APPROVE' });
    expect(accepted.body).toMatchObject({ command: 'Signal', signal: 'ACCEPTED' });
    await settle();
    expect((await call('GET', '/api/approvals')).body).toEqual([]);
  });
});

describe('CTL-07 / CTL-08 over REST', () => {
  it('GET /api/supervisors lists the rule supervisor; rules are set per session (ADMIN) and validated', async () => {
    const { call } = await serve();
    expect((await call('GET', '/api/supervisors', undefined, 'VIEWER')).body).toMatchObject([
      { id: 'rules', kind: 'SUPERVISOR', dryRun: false, state: 'RUNNING' },
    ]);
    const rules = { rules: [{ name: 'pause on failure', when: "event.type == 'NODE_STATUS' && event.status == 'FAILURE'", then: { type: 'PauseWorkflow' } }] };
    expect((await call('PUT', '/api/supervisors/rules/default', rules, 'OPERATOR')).status).toBe(403);
    expect((await call('PUT', '/api/supervisors/rules/default', rules)).status).toBe(200);
    expect((await call('GET', '/api/supervisors/rules/default')).body).toEqual(rules.rules);
    const bad = await call('PUT', '/api/supervisors/rules/default', { rules: [{ when: 'event.type ==', then: { type: 'PauseWorkflow' } }] });
    expect(bad).toMatchObject({ status: 400, body: { error: { path: 'rules.0.when' } } });
  });

  it('the event stream filter accepts CONTROL and APPROVAL events', () => {
    expect(eventFilterFromQuery({ type: 'CONTROL,APPROVAL', executionId: 'x' })).toEqual({ executionId: 'x', type: ['CONTROL', 'APPROVAL'] });
  });

  it('POST /api/workflows/{session}/{workflowId}/nodes/{nodeId}/control reaches the node in every live run', async () => {
    const { call, start } = await serve();
    await start();
    await start();
    const reply = await call('POST', '/api/workflows/default/approval/nodes/d/control', { kind: 'heartbeat' }, 'OPERATOR');
    expect(reply.body).toEqual({ kind: 'heartbeat', runs: 2, delivered: 2, answers: [] });
    expect((await call('POST', '/api/workflows/default/approval/nodes/d/control', { kind: 'signal' })).status).toBe(400);
  });
});
