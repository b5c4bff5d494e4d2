import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { OPERATION_NAMES, STUDIO_API, type OperationName } from '../../shared/api/contract';
import { builtinPlugins, definePlugin, type Plugin } from '../../engine/index';
import { greeter, tempDataDir } from './host-test-support';
import { loadSettings } from './loaded-settings';
import { EncryptedSecretStore, type StringEncryptor } from './secret-store';
import { LOCAL_UI_CALLER, StudioHost, type StudioHostOptions } from './studio-host';

/** HOLD: answers once the test releases it (a run that stays RUNNING, a slot that stays taken). */
let release: () => void = () => undefined;
let released = new Promise<void>((resolve) => (release = resolve));
const hold = definePlugin({
  type: 'HOLD',
  kind: 'processor',
  title: 'HOLD',
  description: '',
  configSchema: z.record(z.string(), z.unknown()),
  defaultConfig: {},
  outputs: ['out'],
  async process(m) {
    await released;
    return [{ payload: m.payload }];
  },
}) as unknown as Plugin<never>;

const HELD = {
  workflowId: 'held',
  nodes: [
    { nodeId: 't', type: 'API_TRIGGER' },
    { nodeId: 'h', type: 'HOLD' },
    { nodeId: 'out', type: 'CONSOLE_TERMINAL' },
  ],
  edges: [
    { source: 't', target: 'h' },
    { source: 'h', target: 'out' },
  ],
};
const WAITS = {
  workflowId: 'waits',
  nodes: [
    { nodeId: 't', type: 'API_TRIGGER' },
    { nodeId: 'wait', type: 'WAIT_FOR_SIGNAL', config: { signal: 'go', timeoutSeconds: 3600 } },
    { nodeId: 'out', type: 'CONSOLE_TERMINAL' },
  ],
  edges: [
    { source: 't', target: 'wait' },
    { source: 'wait', target: 'out' },
  ],
};

/** Electron's safeStorage is not here (an edge we do not own): a reversible stand-in for the OS keychain. */
const encryptor: StringEncryptor = {
  isEncryptionAvailable: () => true,
  encryptString: (text) => Buffer.from(text, 'utf8').reverse(),
  decryptString: (encrypted) => Buffer.from(encrypted).reverse().toString('utf8'),
};

const hosts: StudioHost[] = [];
afterEach(async () => {
  release();
  await Promise.all(hosts.splice(0).map((h) => h.close()));
  released = new Promise<void>((resolve) => (release = resolve));
});

function open(options: StudioHostOptions): StudioHost {
  const host = new StudioHost({ ...options, engine: { ...options.engine, plugins: [...builtinPlugins(), hold] } });
  hosts.push(host);
  return host;
}

async function call(host: StudioHost, operation: OperationName, input: unknown): Promise<unknown> {
  const result = await host.invoke(operation, input, LOCAL_UI_CALLER);
  if (!result.ok) throw new Error(`${operation} refused: ${result.error.code} ${result.error.message}`);
  return result.value;
}

async function until(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let i = 0; i < 20_000; i++) {
    if (await condition()) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  throw new Error(`never happened: ${what}`);
}

/** A run left RUNNING by a process that died (stores flushed and closed, nothing ended): ABORTED at the next boot. */
async function abortedRun(dataDir: string): Promise<string> {
  const first = new StudioHost({ dataDir, engine: { plugins: [...builtinPlugins(), hold] } });
  await call(first, 'workflows.save', { definition: HELD });
  const { executionId } = (await call(first, 'runs.start', { workflowId: 'held' })) as { executionId: string };
  await until(() => first.engine.getRun(executionId).nodes.some((n) => n.nodeId === 'h' && n.status === 'RUNNING'), 'h running');
  await first.stores.log!.flush();
  await first.stores.checkpoints.flush();
  await first.stores.close();
  return executionId;
}

describe("CONTRACT every operation's result parses with its output schema (issue 16 item 5)", () => {
  it('calls each of the operations through the host on a data folder and parses what it answers', async () => {
    const dataDir = await tempDataDir();
    const aborted = await abortedRun(dataDir);
    const host = open({
      dataDir,
      settings: loadSettings({ dataDir, env: {} }),
      env: {},
      secretStore: new EncryptedSecretStore(dataDir, encryptor),
      engine: { scheduler: { limits: { maxConcurrent: 2, shutdownTimeoutMs: 0 } } },
    });
    await host.ready;

    const v1 = ((await call(host, 'workflows.save', { definition: greeter('Hello') })) as { version: string }).version;
    const v2 = ((await call(host, 'workflows.save', { definition: greeter('Hi') })) as { version: string }).version;
    await call(host, 'workflows.save', { definition: greeter('Bye', 'gone') });
    await call(host, 'workflows.save', { definition: WAITS });
    const done = ((await call(host, 'runs.start', { workflowId: 'hello', payload: { name: 'Ada' } })) as { executionId: string }).executionId;
    await host.engine.waitForRun(done);
    const waiting = ((await call(host, 'runs.start', { workflowId: 'waits' })) as { executionId: string }).executionId;
    await until(() => host.engine.getRun(waiting).nodes.some((n) => n.nodeId === 'wait' && n.status === 'RUNNING'), 'wait running');
    const running = ((await call(host, 'runs.start', { workflowId: 'held' })) as { executionId: string }).executionId;
    const queued = ((await call(host, 'runs.start', { workflowId: 'held' })) as { executionId: string }).executionId;
    expect(host.engine.getRun(queued).status).toBe('QUEUED');

    const inputs: Record<OperationName, unknown> = {
      'nodeTypes.list': {},
      'workflows.list': {},
      'workflows.get': { workflowId: 'hello' },
      'workflows.save': { definition: greeter('Hey') },
      'workflows.validate': { definition: greeter() },
      'workflows.versions': { workflowId: 'hello' },
      'workflows.getVersion': { workflowId: 'hello', version: v1 },
      'workflows.restore': { workflowId: 'hello', version: v1 },
      'workflows.diff': { workflowId: 'hello', from: v1, to: v2 },
      'workflows.delete': { workflowId: 'gone' },
      'runs.start': { workflowId: 'hello', payload: { name: 'Bo' } },
      'runs.get': { executionId: done },
      'runs.wait': { executionId: done, timeoutSeconds: 0 },
      'runs.list': {},
      'runs.recorded': { executionId: done, nodeId: 'greet' },
      'runs.recordedSummary': { executionId: done },
      'runs.resume': { executionId: aborted },
      'runs.setPriority': { executionId: queued, priority: 5 },
      'scheduler.get': {},
      'workers.list': {},
      'workers.attempts': { executionId: done },
      'metrics.get': {},
      'ha.status': {},
      'breakpoints.get': { workflowId: 'hello' },
      'breakpoints.set': { workflowId: 'hello', breakpoints: [] },
      'triggers.list': {},
      'scheduler.setLimits': { maxConcurrent: 3 },
      'control.send': { executionId: running, command: { type: 'PauseWorkflow' } },
      'control.state': { executionId: running },
      'control.audit': {},
      'approvals.list': {},
      'signals.send': { executionId: waiting, nodeId: 'wait' },
      'supervisors.list': {},
      'supervisors.getRules': { session: 'default' },
      'supervisors.setRules': { session: 'default', rules: [] },
      'plugins.control': { session: 'default', workflowId: 'held', nodeId: 'h', kind: 'ping' },
      'sessions.list': {},
      'sessions.create': { session: 'second' },
      'sessions.rename': { session: 'second', newSession: 'third' },
      'sessions.delete': { session: 'third' },
      'sessions.applyConfig': { session: 'applied', workflows: [greeter()] },
      'settings.get': {},
      'settings.set': { key: 'yukta.start.idempotency-max-keys', value: 5000 },
      'auth.whoami': {},
      'apiKeys.list': {},
      'apiKeys.create': { name: 'ci', role: 'OPERATOR' },
      'apiKeys.revoke': { name: 'ci' },
      'secrets.list': {},
      'secrets.set': { name: 'TOKEN', value: 's3cret' },
      'secrets.delete': { name: 'TOKEN' },
    };
    expect(Object.keys(inputs).sort()).toEqual([...OPERATION_NAMES].sort());

    const failures: string[] = [];
    for (const operation of Object.keys(inputs) as OperationName[]) {
      const value = await call(host, operation, inputs[operation]);
      const parsed = STUDIO_API[operation].output.safeParse(value);
      if (!parsed.success) failures.push(`${operation}: ${parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')}`);
    }
    expect(failures).toEqual([]);
  }, 60_000);
});
