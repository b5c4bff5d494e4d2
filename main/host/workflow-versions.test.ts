import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../engine/index';
import { STUDIO_API } from '../../shared/api/contract';
import { toHttpRequest } from '../../shared/api/http-routes';
import { clientOf, closeHosts, failure, greeter, openHostOn, tempDataDir } from './host-test-support';
import { STORE_KINDS, type StoreKind } from './studio-host';

afterEach(closeHosts);

async function hostWith(store: StoreKind, maxVersions?: number) {
  const clock = new ManualClock(1_000);
  const dataDir = store === 'memory' ? undefined : await tempDataDir();
  return { clock, dataDir, ...(await openHostOn({ store, ...(dataDir ? { dataDir } : {}), engine: { clock, ...(maxVersions ? { maxVersions } : {}) } })) };
}

describe('DEF-01 versions through the contract', () => {
  it('lists versions newest first with time and note; an identical save adds none', async () => {
    const { api, clock } = await hostWith('memory');
    const v1 = await api['workflows.save']({ definition: greeter('Hello'), note: 'first' });
    clock.advance(500);
    expect(await api['workflows.save']({ definition: greeter('Hello'), note: 'same' })).toMatchObject({ changed: false, version: v1.version });
    const v2 = await api['workflows.save']({ definition: greeter('Hi') });
    expect(v2.version).toMatch(/^[0-9a-f]{64}$/);
    expect(await api['workflows.versions']({ workflowId: 'hello' })).toEqual([
      { version: v2.version, savedAt: 1_500, current: true },
      { version: v1.version, savedAt: 1_000, note: 'first', current: false },
    ]);
    const old = await api['workflows.getVersion']({ workflowId: 'hello', version: v1.version });
    expect(old).toMatchObject({ session: 'default', version: v1.version, note: 'first' });
    expect(old.definition.nodes[1]?.config).toEqual({ set: { greeting: 'Hello ${payload.name}' } });
  });

  it('restores an old version as a new current one, and adds nothing when it already is current', async () => {
    const { api, clock } = await hostWith('memory');
    const v1 = await api['workflows.save']({ definition: greeter('Hello') });
    const v2 = await api['workflows.save']({ definition: greeter('Hi') });
    clock.advance(60_000);
    expect(await api['workflows.restore']({ workflowId: 'hello', version: v1.version })).toEqual({ workflowId: 'hello', version: v1.version, changed: true });
    expect((await api['workflows.get']({ workflowId: 'hello' })).version).toBe(v1.version);
    const versions = await api['workflows.versions']({ workflowId: 'hello' });
    expect(versions.map((v) => [v.version, v.current])).toEqual([
      [v1.version, true],
      [v2.version, false],
    ]);
    expect(versions[0]).toMatchObject({ savedAt: 61_000, note: `restored version ${v1.version.slice(0, 12)}` });
    expect(await api['workflows.restore']({ workflowId: 'hello', version: v1.version, note: 'again' })).toMatchObject({ changed: false });
  });

  it('diffs two versions: exactly the changed node and config key', async () => {
    const { api } = await hostWith('memory');
    const v1 = await api['workflows.save']({ definition: greeter('Hello') });
    const moved = greeter('Hi');
    moved.nodes[0]!.position = { x: 50, y: 0 };
    const v2 = await api['workflows.save']({ definition: moved });
    const diff = await api['workflows.diff']({ workflowId: 'hello', from: v1.version, to: v2.version });
    expect(diff.nodes.changed).toEqual([
      {
        nodeId: 'greet',
        changes: [{ key: 'config.set.greeting', path: ['config', 'set', 'greeting'], before: 'Hello ${payload.name}', after: 'Hi ${payload.name}' }],
      },
    ]);
    expect(diff.nodes.moved).toEqual([{ nodeId: 'start', before: { x: 0, y: 0 }, after: { x: 50, y: 0 } }]);
    expect([diff.nodes.added, diff.nodes.removed, diff.edges.added, diff.edges.removed, diff.description]).toEqual([[], [], [], [], undefined]);
  });

  it('keeps the newest maxVersions versions (engine option maxVersions)', async () => {
    const { api } = await hostWith('sqlite', 3);
    const saved = [];
    for (const g of ['a', 'b', 'c', 'd']) saved.push(await api['workflows.save']({ definition: greeter(g) }));
    expect((await api['workflows.versions']({ workflowId: 'hello' })).map((v) => v.version)).toEqual(
      saved
        .slice(1)
        .reverse()
        .map((s) => s.version),
    );
    const dropped = await failure(api['workflows.getVersion']({ workflowId: 'hello', version: saved[0]!.version }));
    expect([dropped.code, dropped.path]).toEqual(['NOT_FOUND', 'version']);
  });

  it('names the field of a bad or unknown version, workflow or session', async () => {
    const { api } = await hostWith('memory');
    const v1 = await api['workflows.save']({ definition: greeter() });
    const cases = [
      [api['workflows.getVersion']({ workflowId: 'hello', version: '../../etc/passwd' }), 'BAD_INPUT', 'version'],
      [api['workflows.getVersion']({ workflowId: 'hello', version: v1.version.toUpperCase() }), 'BAD_INPUT', 'version'],
      [api['workflows.getVersion']({ workflowId: 'hello', version: 'f'.repeat(64) }), 'NOT_FOUND', 'version'],
      [api['workflows.versions']({ workflowId: 'nope' }), 'NOT_FOUND', 'workflowId'],
      [api['workflows.versions']({ session: 'a/b', workflowId: 'hello' }), 'BAD_INPUT', 'session'],
      [api['workflows.diff']({ workflowId: 'hello', from: 'e'.repeat(64), to: v1.version }), 'NOT_FOUND', 'from'],
      [api['workflows.diff']({ workflowId: 'hello', from: v1.version, to: 'x' }), 'BAD_INPUT', 'to'],
      [api['workflows.restore']({ workflowId: 'hello', version: 'e'.repeat(64) }), 'NOT_FOUND', 'version'],
    ] as const;
    for (const [call, code, path] of cases) expect(await failure(call)).toMatchObject({ code, path });
  });

  it('deletes a workflow with its history (ADMIN only)', async () => {
    const { api, host } = await hostWith('sqlite');
    const v1 = await api['workflows.save']({ definition: greeter() });
    const viewer = await host.invoke('workflows.delete', { workflowId: 'hello' }, { actor: 'key:ro', role: 'VIEWER' });
    expect(!viewer.ok && viewer.error.code).toBe('FORBIDDEN');
    expect(await api['workflows.delete']({ workflowId: 'hello' })).toEqual({ deleted: true });
    expect((await failure(api['workflows.get']({ workflowId: 'hello' }))).code).toBe('NOT_FOUND');
    expect((await failure(api['workflows.getVersion']({ workflowId: 'hello', version: v1.version }))).code).toBe('NOT_FOUND');
    expect((await failure(api['workflows.delete']({ workflowId: 'hello' }))).code).toBe('NOT_FOUND');
  });

  it('lets a VIEWER read versions and diffs but not restore', async () => {
    const { host } = await hostWith('memory');
    const viewer = { actor: 'key:ro', role: 'VIEWER' } as const;
    const saved = await host.engine.saveWorkflow('default', greeter());
    expect((await host.invoke('workflows.versions', { workflowId: 'hello' }, viewer)).ok).toBe(true);
    expect((await host.invoke('workflows.diff', { workflowId: 'hello', from: saved.version, to: saved.version }, viewer)).ok).toBe(true);
    const restore = await host.invoke('workflows.restore', { workflowId: 'hello', version: saved.version }, viewer);
    expect(!restore.ok && restore.error.code).toBe('FORBIDDEN');
  });

  it('maps the new operations onto REST routes under /api/workflows/:session/:workflowId', () => {
    const v = 'a'.repeat(64);
    expect(toHttpRequest('workflows.versions', { session: 'team a', workflowId: 'w' })).toEqual({ method: 'GET', url: '/api/workflows/team%20a/w/versions' });
    expect(toHttpRequest('workflows.getVersion', { session: 's', workflowId: 'w', version: v }).url).toBe(`/api/workflows/s/w/versions/${v}`);
    expect(toHttpRequest('workflows.restore', { session: 's', workflowId: 'w', version: v, note: 'n' })).toEqual({
      method: 'POST',
      url: `/api/workflows/s/w/versions/${v}/restore`,
      body: { note: 'n' },
    });
    expect(toHttpRequest('workflows.diff', { session: 's', workflowId: 'w', from: v, to: v }).url).toBe(`/api/workflows/s/w/diff?from=${v}&to=${v}`);
    expect(toHttpRequest('workflows.delete', { session: 's', workflowId: 'w' }).method).toBe('DELETE');
    for (const op of ['workflows.restore', 'workflows.delete'] as const) expect(STUDIO_API[op].role).toBe('ADMIN');
    for (const op of ['workflows.versions', 'workflows.getVersion', 'workflows.diff'] as const) expect(STUDIO_API[op].role).toBe('VIEWER');
  });
});

describe.each(STORE_KINDS)('DEF-01 concurrent saves from two windows (%s store)', (store) => {
  it('the later save wins and both versions stay in history, also after reopening', async () => {
    const { api, dataDir, host } = await hostWith(store);
    // Two windows are two clients of one host; both saves are in flight at once.
    const [windowA, windowB] = [clientOf(host), clientOf(host)];
    const [a, b] = await Promise.all([
      windowA['workflows.save']({ definition: greeter('from A') }),
      windowB['workflows.save']({ definition: greeter('from B') }),
    ]);
    expect((await api['workflows.get']({ workflowId: 'hello' })).version).toBe(b.version);
    expect((await api['workflows.versions']({ workflowId: 'hello' })).map((v) => v.version)).toEqual([b.version, a.version]);
    if (!dataDir) return;
    await host.close();
    const again = (await openHostOn({ dataDir, store })).api;
    expect((await again['workflows.versions']({ workflowId: 'hello' })).map((v) => v.version)).toEqual([b.version, a.version]);
  });
});
