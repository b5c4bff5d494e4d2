import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { builtinPlugins, definePlugin, ManualClock, type Plugin } from '../../engine/index';
import { z } from 'zod';
import { createHttpServer, type StudioHttpServer } from '../http/http-server';
import { clientOf, failure, tempDataDir } from './host-test-support';
import { parseHostSettings, settingsFromEnv } from './host-settings';
import { StudioHost, type StudioHostOptions } from './studio-host';

/** STEP: counts its calls; a payload naming the node in `holdAt` hangs there while `holding`. */
function stepPlugin(holding: boolean) {
  const calls: string[] = [];
  const plugin = definePlugin({
    type: 'STEP',
    kind: 'processor',
    title: 'STEP',
    description: '',
    configSchema: z.record(z.string(), z.unknown()),
    defaultConfig: {},
    outputs: ['out'],
    async process(m, _c, ctx) {
      calls.push(`${ctx.executionId}/${ctx.nodeId}`);
      const payload = m.payload as { holdAt?: string };
      if (holding && payload.holdAt === ctx.nodeId) await new Promise(() => undefined);
      return [{ payload: m.payload }];
    },
  }) as unknown as Plugin<never>;
  return { plugin, calls };
}

const FLOW = {
  workflowId: 'flow',
  nodes: [
    { nodeId: 't', type: 'API_TRIGGER' },
    { nodeId: 'a', type: 'STEP' },
    { nodeId: 'b', type: 'STEP' },
    { nodeId: 'out', type: 'CONSOLE_TERMINAL' },
  ],
  edges: [
    { source: 't', target: 'a' },
    { source: 'a', target: 'b' },
    { source: 'b', target: 'out' },
  ],
};

const opened: Array<{ host: StudioHost; server?: StudioHttpServer }> = [];
afterEach(async () => {
  for (const { host, server } of opened.splice(0).reverse()) {
    await server?.close();
    await host.close();
  }
});

function host(options: StudioHostOptions, plugins: Array<Plugin<never>> = []): StudioHost {
  const { engine, ...rest } = options;
  const h = new StudioHost({
    ...rest,
    engine: { clock: new ManualClock(0), scheduler: { limits: { shutdownTimeoutMs: 0 } }, ...engine, plugins: [...builtinPlugins(), ...plugins] },
  });
  opened.push({ host: h });
  return h;
}

/** A host whose process dies: queued writes stored, database closed, runs left as they are. */
async function crash(h: StudioHost): Promise<void> {
  const i = opened.findIndex((o) => o.host === h);
  opened.splice(i, 1);
  await h.stores.log!.flush();
  await h.stores.checkpoints.flush();
  await h.stores.close();
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    if (condition()) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  throw new Error(`never happened: ${what}`);
}

describe('DUR-03 runs.resume through the StudioApi and REST', () => {
  it('POST /api/executions/{id}/resume resumes an ABORTED run once (then 409 CONFLICT); runs.get shows the old run ABORTED', async () => {
    const dataDir = await tempDataDir();
    const first = stepPlugin(true);
    const one = host({ dataDir }, [first.plugin]);
    expect(one.storeKind).toBe('sqlite');
    const api = clientOf(one);
    await api['workflows.save']({ definition: FLOW });
    const { executionId } = await api['runs.start']({ workflowId: 'flow', payload: { holdAt: 'b' } });
    await until(() => first.calls.includes(`${executionId}/b`), 'b called');
    await crash(one);

    const life = stepPlugin(false);
    const two = host({ dataDir }, [life.plugin]);
    await two.ready;
    const server = await createHttpServer({ host: two, bind: { port: 0 } });
    opened[opened.length - 1]!.server = server;
    const { url } = await server.listen();
    const get = await fetch(`${url}/api/executions/${executionId}`);
    expect(((await get.json()) as { status: string }).status).toBe('ABORTED');
    const resume = () => fetch(`${url}/api/executions/${executionId}/resume`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    const ok = await resume();
    expect(ok.status).toBe(200);
    const resumed = (await ok.json()) as { executionId: string; resumedFrom: string; queued: boolean };
    expect(resumed).toMatchObject({ resumedFrom: executionId, queued: false });
    expect(await two.engine.waitForRun(resumed.executionId)).toBe('SUCCESS');
    expect(life.calls).toEqual([`${resumed.executionId}/b`]);
    const conflict = await resume();
    expect(conflict.status).toBe(409);
    expect(((await conflict.json()) as { error: { code: string; message: string } }).error).toMatchObject({
      code: 'CONFLICT',
      message: expect.stringContaining('already resumed') as unknown as string,
    });
  });

  it('runs.get reads a run the tracker no longer keeps from the durable log', async () => {
    const dataDir = await tempDataDir();
    const h = host({ dataDir, engine: { maxRuns: 1 } }, [stepPlugin(false).plugin]);
    const api = clientOf(h);
    await api['workflows.save']({ definition: FLOW });
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { executionId } = await api['runs.start']({ workflowId: 'flow', payload: { i } });
      expect(await h.engine.waitForRun(executionId)).toBe('SUCCESS');
      ids.push(executionId);
    }
    expect(() => h.engine.getRun(ids[0]!)).toThrow(/does not exist/);
    const old = await api['runs.get']({ executionId: ids[0]! });
    expect(old).toMatchObject({ executionId: ids[0], workflowId: 'flow', status: 'SUCCESS' });
    expect(old.nodes.map((n) => `${n.nodeId}:${n.status}`).sort()).toEqual(['a:SUCCESS', 'b:SUCCESS', 'out:SUCCESS', 't:SUCCESS']);
    expect((await failure(api['runs.get']({ executionId: 'never-was' }))).code).toBe('NOT_FOUND');
  });

  it('the memory store keeps nothing across a restart: runs.resume is CONFLICT and names why', async () => {
    const h = host({}, [stepPlugin(false).plugin]);
    expect(h.storeKind).toBe('memory');
    expect(h.stores.log).toBeNull();
    const e = await failure(clientOf(h)['runs.resume']({ executionId: 'x' }));
    expect(e.code).toBe('CONFLICT');
    expect(e.message).toMatch(/durable execution log/);
  });
});

describe('DUR-01/DUR-02 host settings: yukta.execution-log.* and yukta.restart.*', () => {
  it('moves the log and the checkpoints to the configured folders (relative to the data folder) and flushes them on close', async () => {
    const dataDir = await tempDataDir();
    const settings = parseHostSettings({ 'yukta.execution-log.dir': 'journal', 'yukta.restart.dir': 'cps', 'yukta.execution-log.fsync': true });
    const h = host({ dataDir, settings }, [stepPlugin(false).plugin]);
    const api = clientOf(h);
    await api['workflows.save']({ definition: FLOW });
    const { executionId } = await api['runs.start']({ workflowId: 'flow', payload: {} });
    expect(await h.engine.waitForRun(executionId)).toBe('SUCCESS');
    await h.close();
    opened.splice(
      opened.findIndex((o) => o.host === h),
      1,
    );
    const lines = readFileSync(join(dataDir, 'journal', 'executions.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { runId: string; type: string });
    expect(lines.filter((l) => l.runId === executionId).map((l) => l.type)).toEqual(expect.arrayContaining(['RUN_STARTED', 'NODE_FINISHED', 'RUN_FINISHED']));
    expect(existsSync(join(dataDir, 'cps'))).toBe(true);
  });

  it('reads them from the environment and refuses a misspelt one, naming it', async () => {
    const s = parseHostSettings(
      settingsFromEnv({
        YUKTA_EXECUTION_LOG_FSYNC: 'true',
        YUKTA_RESTART_AUTO_RESUME: '1',
        YUKTA_EXECUTION_LOG_RETAINED_RUNS: '50',
        YUKTA_RESTART_DIR: '/tmp/x',
      }),
    );
    expect(s['yukta.execution-log.fsync']).toBe(true);
    expect(s['yukta.restart.auto-resume']).toBe(true);
    expect(s['yukta.execution-log.retained-runs']).toBe(50);
    expect(s['yukta.restart.dir']).toBe('/tmp/x');
    expect(parseHostSettings({})['yukta.restart.auto-resume']).toBe(false);
    expect(() => parseHostSettings({ 'yukta.restart.autoresume': true })).toThrow(/unknown setting "yukta.restart.autoresume"/);
    expect(() => parseHostSettings({ 'yukta.execution-log.retained-runs': 0 })).toThrow(/yukta.execution-log.retained-runs/);
  });

  it('yukta.restart.auto-resume resumes every interrupted run at boot', async () => {
    const dataDir = await tempDataDir();
    const first = stepPlugin(true);
    const one = host({ dataDir }, [first.plugin]);
    const api = clientOf(one);
    await api['workflows.save']({ definition: FLOW });
    const ids: string[] = [
      (await api['runs.start']({ workflowId: 'flow', payload: { holdAt: 'b' } })).executionId,
      (await api['runs.start']({ workflowId: 'flow', payload: { holdAt: 'b', n: 2 } })).executionId,
    ];
    await until(() => ids.every((id) => first.calls.includes(`${id}/b`)), 'both at b');
    await crash(one);

    const life = stepPlugin(false);
    const two = host({ dataDir, settings: parseHostSettings({ 'yukta.restart.auto-resume': true }) }, [life.plugin]);
    await two.ready;
    await until(() => life.calls.length === 2, 'both resumed');
    expect(life.calls.every((c) => c.endsWith('/b'))).toBe(true);
    const runs = await clientOf(two)['runs.list']({ workflowId: 'flow' });
    expect(runs.filter((r) => ids.includes(r.executionId)).map((r) => r.status)).toEqual(['ABORTED', 'ABORTED']);
  });
});
