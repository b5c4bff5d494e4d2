import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { builtinPlugins, definePlugin, ManualClock, type Plugin } from '../../engine/index';
import { STUDIO_API } from '../../shared/api/contract';
import { toHttpRequest } from '../../shared/api/http-routes';
import { closeHosts, failure, greeter, openHostOn, tempDataDir } from './host-test-support';
import { STORE_KINDS, type StoreKind } from './studio-host';

afterEach(closeHosts);

async function hostWith(store: StoreKind, plugins?: Array<Plugin<never>>) {
  const dataDir = store === 'memory' ? undefined : await tempDataDir();
  const engine = { clock: new ManualClock(0), ...(plugins ? { plugins } : {}) };
  return openHostOn({ store, ...(dataDir ? { dataDir } : {}), engine });
}

/** A processor that holds every message until the test opens the gate: keeps a run live. */
function gatedPlugin() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const plugin = definePlugin({
    type: 'GATE',
    kind: 'processor',
    title: 'Gate',
    description: 'waits for the test',
    configSchema: z.strictObject({}),
    defaultConfig: {},
    outputs: ['out'],
    async process(m) {
      await opened;
      return [{ payload: m.payload }];
    },
  });
  return { plugin: plugin as unknown as Plugin<never>, open };
}

const gatedWorkflow = {
  workflowId: 'held',
  nodes: [
    { nodeId: 't', type: 'API_TRIGGER' },
    { nodeId: 'g', type: 'GATE' },
    { nodeId: 'out', type: 'CONSOLE_TERMINAL' },
  ],
  edges: [
    { source: 't', target: 'g' },
    { source: 'g', target: 'out' },
  ],
};

describe('DUR-05 sessions through the contract', () => {
  it('always lists the default session; counts workflows; a save creates a session implicitly', async () => {
    const { api } = await hostWith('sqlite');
    expect(await api['sessions.list']({})).toEqual([{ session: 'default', workflowCount: 0, defaultExecutionTimeoutSeconds: 3600 }]);
    await api['workflows.save']({ session: 'team', definition: greeter() });
    await api['workflows.save']({ definition: greeter() });
    expect(await api['sessions.list']({})).toEqual([
      { session: 'default', workflowCount: 1, defaultExecutionTimeoutSeconds: 3600 },
      { session: 'team', workflowCount: 1, defaultExecutionTimeoutSeconds: 3600 },
    ]);
  });

  it('creates a session once, with its default execution timeout', async () => {
    const { api, host } = await hostWith('memory');
    expect(await api['sessions.create']({ session: 'ops', defaultExecutionTimeoutSeconds: 60 })).toEqual({
      session: 'ops',
      workflowCount: 0,
      defaultExecutionTimeoutSeconds: 60,
    });
    expect(await host.engine.sessions.timeoutMs('ops')).toBe(60_000);
    expect(await host.engine.sessions.timeoutMs('unknown')).toBe(3_600_000);
    expect(await failure(api['sessions.create']({ session: 'ops' }))).toMatchObject({ code: 'CONFLICT', path: 'session' });
    expect(await failure(api['sessions.create']({ session: 'default' }))).toMatchObject({ code: 'CONFLICT', path: 'session' });
    expect(await failure(api['sessions.create']({ session: '../x' }))).toMatchObject({ code: 'BAD_INPUT', path: 'session' });
    expect(await failure(api['sessions.create']({ session: 'x', defaultExecutionTimeoutSeconds: 0 }))).toMatchObject({
      code: 'BAD_INPUT',
      path: 'defaultExecutionTimeoutSeconds',
    });
  });

  it('renames a session, moving its workflows and their versions', async () => {
    const { api } = await hostWith('file');
    await api['sessions.create']({ session: 'draft', defaultExecutionTimeoutSeconds: 90 });
    const v1 = await api['workflows.save']({ session: 'draft', definition: greeter('Hello') });
    await api['workflows.save']({ session: 'draft', definition: greeter('Hi') });
    await api['sessions.create']({ session: 'taken' });
    expect(await failure(api['sessions.rename']({ session: 'draft', newSession: 'taken' }))).toMatchObject({ code: 'CONFLICT', path: 'newSession' });
    expect(await failure(api['sessions.rename']({ session: 'nope', newSession: 'x' }))).toMatchObject({ code: 'NOT_FOUND', path: 'session' });
    expect(await failure(api['sessions.rename']({ session: 'default', newSession: 'x' }))).toMatchObject({ code: 'BAD_INPUT', path: 'session' });
    expect(await failure(api['sessions.rename']({ session: 'draft', newSession: 'a/b' }))).toMatchObject({ code: 'BAD_INPUT', path: 'newSession' });
    expect(await api['sessions.rename']({ session: 'draft', newSession: 'release 1' })).toEqual({
      session: 'release 1',
      workflowCount: 1,
      defaultExecutionTimeoutSeconds: 90,
    });
    expect((await failure(api['workflows.get']({ session: 'draft', workflowId: 'hello' }))).code).toBe('NOT_FOUND');
    expect((await api['workflows.versions']({ session: 'release 1', workflowId: 'hello' })).length).toBe(2);
    expect((await api['workflows.getVersion']({ session: 'release 1', workflowId: 'hello', version: v1.version })).session).toBe('release 1');
  });

  it('deletes a session with its workflows; the default session cannot be deleted', async () => {
    const { api } = await hostWith('sqlite');
    await api['workflows.save']({ session: 'old', definition: greeter() });
    expect(await api['sessions.delete']({ session: 'old' })).toEqual({ deleted: true });
    expect((await failure(api['workflows.get']({ session: 'old', workflowId: 'hello' }))).code).toBe('NOT_FOUND');
    expect((await api['sessions.list']({})).map((s) => s.session)).toEqual(['default']);
    expect(await failure(api['sessions.delete']({ session: 'old' }))).toMatchObject({ code: 'NOT_FOUND', path: 'session' });
    expect(await failure(api['sessions.delete']({ session: 'default' }))).toMatchObject({ code: 'BAD_INPUT', path: 'session' });
  });

  it('refuses to rename or delete a session while its runs are live (CONFLICT), and allows it after', async () => {
    const gate = gatedPlugin();
    const { api, host } = await hostWith('memory', [...builtinPlugins(), gate.plugin]);
    await api['workflows.save']({ session: 'busy', definition: gatedWorkflow });
    const { executionId } = await api['runs.start']({ session: 'busy', workflowId: 'held' });
    expect(host.engine.hasLiveRuns('busy')).toBe(true);
    expect(await failure(api['sessions.delete']({ session: 'busy' }))).toMatchObject({ code: 'CONFLICT', path: 'session' });
    expect(await failure(api['sessions.rename']({ session: 'busy', newSession: 'calm' }))).toMatchObject({ code: 'CONFLICT', path: 'session' });
    expect((await api['sessions.list']({})).find((s) => s.session === 'busy')?.workflowCount).toBe(1);
    gate.open();
    expect(await host.engine.waitForRun(executionId)).toBe('SUCCESS');
    expect(await api['sessions.rename']({ session: 'busy', newSession: 'calm' })).toMatchObject({ session: 'calm' });
    expect(await api['sessions.delete']({ session: 'calm' })).toEqual({ deleted: true });
  });

  it('maps the operations onto /api/sessions routes with ADMIN for writes', () => {
    expect(toHttpRequest('sessions.list', {})).toEqual({ method: 'GET', url: '/api/sessions' });
    expect(toHttpRequest('sessions.rename', { session: 'a b', newSession: 'c' })).toEqual({
      method: 'POST',
      url: '/api/sessions/a%20b/rename',
      body: { newSession: 'c' },
    });
    expect(toHttpRequest('sessions.delete', { session: 's' })).toEqual({ method: 'DELETE', url: '/api/sessions/s', body: {} });
    expect(toHttpRequest('sessions.applyConfig', { session: 's', workflows: [] })).toEqual({
      method: 'PUT',
      url: '/api/sessions/s/config',
      body: { workflows: [] },
    });
    expect(STUDIO_API['sessions.list'].role).toBe('VIEWER');
    for (const op of ['sessions.create', 'sessions.rename', 'sessions.delete', 'sessions.applyConfig'] as const) expect(STUDIO_API[op].role).toBe('ADMIN');
  });
});

describe.each(STORE_KINDS)('DUR-05 applying a session configuration (%s store)', (store) => {
  it('stores the session and every workflow; applying it again changes nothing', async () => {
    const { api, host } = await hostWith(store);
    const config = { session: 'team', defaultExecutionTimeoutSeconds: 120, workflows: [greeter('Hi', 'one'), greeter('Yo', 'two')], note: 'from config' };
    const first = await api['sessions.applyConfig'](config);
    expect(first.session).toEqual({ session: 'team', workflowCount: 2, defaultExecutionTimeoutSeconds: 120 });
    expect(first.created).toBe(true);
    expect(first.workflows.map((w) => [w.workflowId, w.changed])).toEqual([
      ['one', true],
      ['two', true],
    ]);
    expect((await api['workflows.versions']({ session: 'team', workflowId: 'one' }))[0]?.note).toBe('from config');
    expect(await host.engine.sessions.timeoutMs('team')).toBe(120_000);
    const again = await api['sessions.applyConfig']({ ...config, defaultExecutionTimeoutSeconds: 30 });
    expect([again.created, again.workflows.map((w) => w.changed), again.session.defaultExecutionTimeoutSeconds]).toEqual([false, [false, false], 30]);
  });

  it('stores nothing when one workflow is invalid, naming the workflow, node and path', async () => {
    const { api } = await hostWith(store);
    const bad = { ...greeter('Hi', 'two'), nodes: [{ nodeId: 'start', type: 'NO_SUCH_TYPE' }], edges: [] };
    const e = await failure(api['sessions.applyConfig']({ session: 'team', workflows: [greeter('Hi', 'one'), bad] }));
    expect(e).toMatchObject({ code: 'VALIDATION_FAILED', path: 'workflows.1.nodes.0.type' });
    expect(e.issues?.[0]).toMatchObject({ code: 'DEF-02/unknown-type', nodeId: 'start', path: 'workflows.1.nodes.0.type' });
    expect((await api['sessions.list']({})).map((s) => s.session)).toEqual(['default']);
    expect(await api['workflows.list']({})).toEqual([]);
  });

  it('refuses a configuration naming one workflow twice, or a bad shape, naming the field', async () => {
    const { api } = await hostWith(store);
    const twice = await failure(api['sessions.applyConfig']({ session: 'team', workflows: [greeter('a', 'w'), greeter('b', 'w')] }));
    expect(twice).toMatchObject({ code: 'BAD_INPUT', path: 'workflows.1.workflowId' });
    const shape = await failure(api['sessions.applyConfig']({ session: 'team', workflows: [{ ...greeter(), nodes: [{ nodeId: 'a/b', type: 'TRANSFORM' }] }] }));
    expect(shape).toMatchObject({ code: 'BAD_INPUT', path: 'workflows.0.nodes.0.nodeId' });
    expect(await api['workflows.list']({})).toEqual([]);
  });
});
