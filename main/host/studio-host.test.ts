import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createStudioClient, type StudioClient } from '../../shared/api/client';
import { OPERATION_NAMES, STUDIO_API } from '../../shared/api/contract';
import { StudioApiError } from '../../shared/api/errors';
import type { StudioEvent } from '../../shared/events/events';
import { createMemoryTransport } from './memory-transport';
import { LOCAL_UI_CALLER, StudioHost } from './studio-host';

const chain = {
  workflowId: 'hello',
  description: 'three nodes',
  nodes: [
    { nodeId: 'start', type: 'API_TRIGGER', position: { x: 0, y: 0 } },
    { nodeId: 'greet', type: 'TRANSFORM', config: { set: { greeting: 'Hello ${payload.name}' } } },
    { nodeId: 'print', type: 'CONSOLE_TERMINAL' },
  ],
  edges: [
    { source: 'start', target: 'greet' },
    { source: 'greet', target: 'print' },
  ],
};

const hosts: StudioHost[] = [];
function setup(options: ConstructorParameters<typeof StudioHost>[0] = {}): { host: StudioHost; api: StudioClient } {
  const host = new StudioHost(options);
  hosts.push(host);
  return { host, api: createStudioClient(createMemoryTransport(host, LOCAL_UI_CALLER)) };
}
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((h) => h.close()));
});

async function failure(p: Promise<unknown>): Promise<StudioApiError> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(StudioApiError);
  return e as StudioApiError;
}

describe('StudioApi contract over the in-memory transport pair', () => {
  it('declares every operation with a schema, a role and a REST route', () => {
    expect(OPERATION_NAMES.sort()).toEqual([
      'apiKeys.create',
      'apiKeys.list',
      'apiKeys.revoke',
      'approvals.list',
      'auth.whoami',
      'breakpoints.get',
      'breakpoints.set',
      'control.audit',
      'control.send',
      'control.state',
      'ha.status',
      'metrics.get',
      'nodeTypes.list',
      'plugins.control',
      'runs.get',
      'runs.list',
      'runs.recorded',
      'runs.recordedSummary',
      'runs.resume',
      'runs.setPriority',
      'runs.start',
      'runs.wait',
      'scheduler.get',
      'scheduler.setLimits',
      'secrets.delete',
      'secrets.list',
      'secrets.set',
      'sessions.applyConfig',
      'sessions.create',
      'sessions.delete',
      'sessions.list',
      'sessions.rename',
      'settings.get',
      'settings.set',
      'signals.send',
      'supervisors.getRules',
      'supervisors.list',
      'supervisors.setRules',
      'triggers.list',
      'workers.attempts',
      'workers.list',
      'workflows.delete',
      'workflows.diff',
      'workflows.get',
      'workflows.getVersion',
      'workflows.list',
      'workflows.restore',
      'workflows.save',
      'workflows.validate',
      'workflows.versions',
    ]);
    for (const name of OPERATION_NAMES) {
      expect(STUDIO_API[name].http.path.startsWith('/api/')).toBe(true);
      expect(['VIEWER', 'OPERATOR', 'ADMIN']).toContain(STUDIO_API[name].role);
    }
  });

  it('saves, lists, reads, runs and reports a workflow end to end, with events in batches', async () => {
    const { api } = setup();
    expect((await api['nodeTypes.list']({})).map((t) => t.type)).toContain('TRANSFORM');
    const saved = await api['workflows.save']({ definition: chain, note: 'first' });
    expect(saved).toMatchObject({ workflowId: 'hello', changed: true });
    expect(await api['workflows.save']({ definition: chain })).toMatchObject({ version: saved.version, changed: false });
    expect((await api['workflows.list']({})).map((w) => [w.workflowId, w.nodeCount])).toEqual([['hello', 3]]);
    expect((await api['workflows.get']({ workflowId: 'hello' })).definition.nodes[0]?.position).toEqual({ x: 0, y: 0 });

    const batches: StudioEvent[][] = [];
    let finished!: () => void;
    const ended = new Promise<void>((r) => (finished = r));
    const unsubscribe = api.subscribe({}, (batch) => {
      batches.push(batch);
      if (batch.some((e) => e.type === 'EXECUTION_STATUS' && e.status === 'SUCCESS')) finished();
    });
    const { executionId } = await api['runs.start']({ workflowId: 'hello', payload: { name: 'Ada' } });
    await ended;
    unsubscribe();
    // Events come in batches, not one message per event.
    expect(batches.length).toBeLessThan(batches.flat().length);
    const run = await api['runs.get']({ executionId });
    expect(run.status).toBe('SUCCESS');
    expect(run.nodes.every((n) => n.status === 'SUCCESS')).toBe(true);
    expect(run.results[0]?.payload).toEqual({ name: 'Ada', greeting: 'Hello Ada' });
    expect(run.definitionVersion).toBe(saved.version);
    expect((await api['runs.list']({ workflowId: 'hello' })).map((r) => r.executionId)).toEqual([executionId]);
  });

  it('filters a subscription by execution id and type', async () => {
    const { api } = setup();
    await api['workflows.save']({ definition: chain });
    const { executionId: first } = await api['runs.start']({ workflowId: 'hello' });
    const seen: StudioEvent[] = [];
    let done!: () => void;
    const ended = new Promise<void>((r) => (done = r));
    // Held at "greet" until subscribed, so its end cannot pass before the subscription exists.
    const { executionId: second } = await api['runs.start']({ workflowId: 'hello', debug: { paused: ['greet'] } });
    const unsubscribe = api.subscribe({ executionId: second, type: ['EXECUTION_STATUS'] }, (batch) => {
      seen.push(...batch);
      if (batch.some((e) => e.type === 'EXECUTION_STATUS' && e.status === 'SUCCESS')) done();
    });
    await api['control.send']({ executionId: second, command: { type: 'ResumeNode', nodeId: 'greet' } });
    await ended;
    unsubscribe();
    expect(new Set(seen.map((e) => e.executionId))).toEqual(new Set([second]));
    expect(new Set(seen.map((e) => e.type))).toEqual(new Set(['EXECUTION_STATUS']));
    expect(first).not.toBe(second);
  });
});

describe('Bad input names the field; nothing is half-saved', () => {
  it('refuses a bad identifier with BAD_INPUT and the path', async () => {
    const { api } = setup();
    const e = await failure(api['workflows.save']({ definition: { ...chain, nodes: [{ nodeId: 'a/b', type: 'TRANSFORM' }], edges: [] } }));
    expect(e.code).toBe('BAD_INPUT');
    expect(e.path).toBe('definition.nodes.0.nodeId');
    expect(e.message).toContain('path separator');
  });

  it('refuses a cycle with VALIDATION_FAILED and writes no file (file store) and no row (SQLite)', async () => {
    const cyclic = {
      workflowId: 'loop',
      nodes: [
        { nodeId: 'a', type: 'TRANSFORM' },
        { nodeId: 'b', type: 'TRANSFORM' },
      ],
      edges: [
        { source: 'a', target: 'b' },
        { source: 'b', target: 'a' },
      ],
    };
    for (const store of ['file', 'sqlite'] as const) {
      const dataDir = await mkdtemp(join(tmpdir(), 'yukta-host-'));
      const { api } = setup({ dataDir, store });
      const e = await failure(api['workflows.save']({ definition: cyclic }));
      expect(e.code).toBe('VALIDATION_FAILED');
      expect(e.message).toContain('cycle');
      expect(e.issues?.[0]?.nodeIds?.sort()).toEqual(['a', 'b']);
      expect(await api['workflows.list']({})).toEqual([]);
      // The execution log and checkpoint folders are made at open (DUR-01, DUR-02); no workflow file was written.
      if (store === 'file') expect((await readdir(dataDir)).filter((n) => n !== 'logs' && n !== 'checkpoints')).toEqual([]);
    }
  });

  it('persists saved workflows in the data folder across hosts', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'yukta-host-'));
    await setup({ dataDir }).api['workflows.save']({ definition: chain });
    const again = setup({ dataDir }).api;
    expect((await again['workflows.get']({ workflowId: 'hello' })).definition.description).toBe('three nodes');
  });

  it('refuses an unknown operation', async () => {
    const { host } = setup();
    const result = await host.invoke('workflows.drop', {}, LOCAL_UI_CALLER);
    expect(result).toEqual({ ok: false, error: { code: 'UNKNOWN_OPERATION', message: 'unknown operation "workflows.drop"', path: 'operation' } });
  });

  it("refuses an operation above the caller's role", async () => {
    const { host } = setup();
    const result = await host.invoke('workflows.save', { definition: chain }, { actor: 'key:ci', role: 'VIEWER' });
    expect(result.ok).toBe(false);
    expect(!result.ok && result.error.code).toBe('FORBIDDEN');
  });

  it('answers NOT_FOUND for a missing workflow or run', async () => {
    const { api } = setup();
    expect((await failure(api['workflows.get']({ workflowId: 'nope' }))).code).toBe('NOT_FOUND');
    expect((await failure(api['runs.get']({ executionId: 'nope' }))).code).toBe('NOT_FOUND');
    expect((await failure(api['runs.start']({ workflowId: 'nope' }))).code).toBe('NOT_FOUND');
  });

  it('refuses a non-object payload, naming it', async () => {
    const { host } = setup();
    const result = await host.invoke('runs.start', { workflowId: 'x', payload: [1, 2] }, LOCAL_UI_CALLER);
    expect(!result.ok && result.error).toMatchObject({ code: 'BAD_INPUT', path: 'payload' });
  });
});
