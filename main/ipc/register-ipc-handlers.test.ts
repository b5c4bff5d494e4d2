import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OPERATION_NAMES } from '../../shared/api/contract';
import type { ApiResult } from '../../shared/api/errors';
import type { StudioEvent } from '../../shared/events/events';
import { StudioHost } from '../host/studio-host';
import { cyclicWorkflow, helloWorkflow } from '../http/test-workflows';
import { EVENTS_CHANNEL, operationChannel, SUBSCRIBE_CHANNEL, UNSUBSCRIBE_CHANNEL } from './ipc-channels';
import type { IpcInvokeEventLike, IpcInvokeListener, IpcMainLike, SenderFrameLike, WebContentsLike } from './ipc-types';
import { registerIpcHandlers, type IpcRegistration } from './register-ipc-handlers';
import { createTrustedSenderCheck } from './trusted-sender';

/** Records handlers like ipcMain and lets a test invoke them as a renderer would. */
class FakeIpcMain implements IpcMainLike {
  readonly handlers = new Map<string, IpcInvokeListener>();
  handle(channel: string, listener: IpcInvokeListener): void {
    if (this.handlers.has(channel)) throw new Error(`second handler for ${channel}`);
    this.handlers.set(channel, listener);
  }
  removeHandler(channel: string): void {
    this.handlers.delete(channel);
  }
  async invoke(event: IpcInvokeEventLike, channel: string, ...args: unknown[]): Promise<ApiResult<unknown>> {
    const handler = this.handlers.get(channel);
    if (!handler) throw new Error(`No handler registered for '${channel}'`); // what Electron rejects with
    return (await handler(event, ...args)) as ApiResult<unknown>;
  }
}

/** A webContents that records what main sends and can be destroyed. */
class FakeWebContents implements WebContentsLike {
  private static next = 1;
  readonly id = FakeWebContents.next++;
  readonly sent: Array<{ channel: string; args: unknown[] }> = [];
  private destroyed = false;
  private readonly onDestroyed: Array<() => void> = [];
  private waiters: Array<() => void> = [];
  send(channel: string, ...args: unknown[]): void {
    this.sent.push({ channel, args });
    this.waiters.splice(0).forEach((w) => w());
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  once(_event: 'destroyed', listener: () => void): void {
    this.onDestroyed.push(listener);
  }
  destroy(): void {
    this.destroyed = true;
    this.onDestroyed.splice(0).forEach((l) => l());
  }
  /** Resolves once `predicate` holds for what was sent. */
  async waitFor(predicate: () => boolean): Promise<void> {
    while (!predicate()) await new Promise<void>((resolve) => this.waiters.push(resolve));
  }
  batches(id: string): StudioEvent[][] {
    return this.sent.filter((s) => s.channel === EVENTS_CHANNEL && s.args[0] === id).map((s) => s.args[1] as StudioEvent[]);
  }
}

const APP_FRAME: SenderFrameLike = { url: 'app://studio/index.html', parent: null };

let host: StudioHost;
let ipc: FakeIpcMain;
let contents: FakeWebContents;
let registration: IpcRegistration;

const fromApp = (frame: SenderFrameLike | null = APP_FRAME): IpcInvokeEventLike => ({ sender: contents, senderFrame: frame });
const op = (name: string, input: unknown, frame?: SenderFrameLike | null) => ipc.invoke(fromApp(frame), operationChannel(name), input);

beforeEach(() => {
  host = new StudioHost();
  ipc = new FakeIpcMain();
  contents = new FakeWebContents();
  registration = registerIpcHandlers(ipc, host, { isTrustedSender: createTrustedSenderCheck({ devServerUrl: 'http://localhost:5173' }) });
});

afterEach(async () => {
  registration.dispose();
  await host.close();
});

describe('SEC-01 IPC transport', () => {
  it('registers one handler per operation, plus subscribe and unsubscribe', () => {
    const expected = [...OPERATION_NAMES.map(operationChannel), SUBSCRIBE_CHANNEL, UNSUBSCRIBE_CHANNEL];
    expect([...ipc.handlers.keys()].sort()).toEqual(expected.sort());
  });

  it('calls the host for a trusted sender and returns ApiResult data', async () => {
    const saved = await op('workflows.save', { definition: helloWorkflow() });
    expect(saved).toMatchObject({ ok: true, value: { workflowId: 'hello', changed: true } });
    const list = await op('workflows.list', {});
    expect(list).toMatchObject({ ok: true, value: [{ workflowId: 'hello' }] });
  });

  it('accepts the dev server origin when configured', async () => {
    expect(await op('nodeTypes.list', {}, { url: 'http://localhost:5173/#/editor', parent: null })).toMatchObject({ ok: true });
  });

  it('refuses untrusted senders with FORBIDDEN as data', async () => {
    const frames: Array<SenderFrameLike | null> = [
      null,
      { url: 'https://evil.example/', parent: null },
      { url: 'app://studio.evil/index.html', parent: null },
      { url: 'app://evil/index.html', parent: null },
      { url: 'http://localhost:5174/', parent: null },
      { url: 'file:///etc/passwd', parent: null },
      { url: 'app://studio/index.html', parent: { url: 'app://studio/index.html' } },
      { url: 'not a url', parent: null },
    ];
    for (const frame of frames) {
      const result = await op('workflows.list', {}, frame);
      expect(result, JSON.stringify(frame)).toEqual({ ok: false, error: expect.objectContaining({ code: 'FORBIDDEN' }) });
      const sub = await ipc.invoke(fromApp(frame), SUBSCRIBE_CHANNEL, { page: 'p', id: 's', filter: {} });
      expect(sub).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    }
    expect(registration.subscriptions.count(contents.id)).toBe(0);
  });

  it('SEC-03: every channel checks the sender frame before the host sees the call', async () => {
    const invoked: string[] = [];
    const original = host.invoke.bind(host);
    host.invoke = ((operation: Parameters<StudioHost['invoke']>[0], ...rest: [unknown, never]) => {
      invoked.push(String(operation));
      return original(operation, ...rest);
    }) as StudioHost['invoke'];
    const untrusted: Array<SenderFrameLike | null> = [
      null,
      { url: 'https://evil.example/', parent: null },
      { url: 'app://studio/index.html', parent: { url: 'app://studio/' } },
    ];
    let refused = 0;
    for (const channel of ipc.handlers.keys()) {
      for (const frame of untrusted) {
        expect(await ipc.invoke(fromApp(frame), channel, { session: 'default', workflowId: 'hello', executionId: 'x', name: 'K' }), channel).toMatchObject({
          ok: false,
          error: { code: 'FORBIDDEN' },
        });
        refused += 1;
      }
    }
    expect(refused).toBe((OPERATION_NAMES.length + 2) * untrusted.length);
    expect(invoked).toEqual([]);
    expect(registration.subscriptions.count(contents.id)).toBe(0);
  });

  it('returns BAD_INPUT naming the field, and VALIDATION_FAILED with issues, as data', async () => {
    const definition = helloWorkflow();
    (definition.nodes as Array<Record<string, unknown>>)[1]!.nodeId = '';
    expect(await op('workflows.save', { definition })).toMatchObject({ ok: false, error: { code: 'BAD_INPUT', path: 'definition.nodes.1.nodeId' } });
    const cycle = await op('workflows.save', { definition: cyclicWorkflow() });
    expect(cycle).toMatchObject({
      ok: false,
      error: { code: 'VALIDATION_FAILED', issues: expect.arrayContaining([expect.objectContaining({ code: 'DEF-02/cycle' })]) },
    });
  });

  it('has no channel for an unknown operation', async () => {
    await expect(ipc.invoke(fromApp(), operationChannel('nope.nothing'), {})).rejects.toThrow(/No handler/);
  });
});

describe('IPC event subscriptions', () => {
  async function startHello(): Promise<string> {
    await op('workflows.save', { definition: helloWorkflow() });
    const started = await op('runs.start', { workflowId: 'hello', payload: { name: 'Lin' } });
    if (!started.ok) throw new Error(started.error.message);
    return (started.value as { executionId: string }).executionId;
  }

  it("delivers a run's events in batches on yukta:events", async () => {
    const sub = await ipc.invoke(fromApp(), SUBSCRIBE_CHANNEL, { page: 'page-1', id: 'runs', filter: { type: ['EXECUTION_STATUS', 'NODE_RESULT'] } });
    expect(sub).toEqual({ ok: true, value: null });
    const executionId = await startHello();
    const done = (): boolean =>
      contents
        .batches('runs')
        .flat()
        .some((e) => e.type === 'EXECUTION_STATUS' && e.status === 'SUCCESS');
    await contents.waitFor(done);
    const batches = contents.batches('runs');
    const events = batches.flat();
    // Batched, not one message per event: the run's PENDING and RUNNING are emitted in one tick, so arrive together.
    expect(batches[0]!.length).toBeGreaterThan(1);
    expect(events.every((e) => e.executionId === executionId && ['EXECUTION_STATUS', 'NODE_RESULT'].includes(e.type))).toBe(true);
    expect(events.find((e) => e.type === 'NODE_RESULT')).toMatchObject({ payload: { greeting: 'Hello Lin' } });
  });

  it('refuses a bad filter with BAD_INPUT naming the field', async () => {
    const sub = await ipc.invoke(fromApp(), SUBSCRIBE_CHANNEL, { page: 'p', id: 's', filter: { type: ['NOPE'] } });
    expect(sub).toMatchObject({ ok: false, error: { code: 'BAD_INPUT', path: 'filter.type.0' } });
  });

  it('stops sending after unsubscribe', async () => {
    await ipc.invoke(fromApp(), SUBSCRIBE_CHANNEL, { page: 'p', id: 'a', filter: {} });
    await ipc.invoke(fromApp(), SUBSCRIBE_CHANNEL, { page: 'p', id: 'b', filter: {} });
    expect(await ipc.invoke(fromApp(), UNSUBSCRIBE_CHANNEL, 'a')).toEqual({ ok: true, value: null });
    const executionId = await startHello();
    await host.engine.waitForRun(executionId);
    await contents.waitFor(() =>
      contents
        .batches('b')
        .flat()
        .some((e) => e.type === 'EXECUTION_STATUS' && e.status === 'SUCCESS'),
    );
    expect(contents.batches('a')).toEqual([]);
  });

  it('cleans up when the webContents is destroyed', async () => {
    await ipc.invoke(fromApp(), SUBSCRIBE_CHANNEL, { page: 'p', id: 'a', filter: {} });
    expect(registration.subscriptions.count(contents.id)).toBe(1);
    contents.destroy();
    expect(registration.subscriptions.count(contents.id)).toBe(0);
    const executionId = await startHello();
    await host.engine.waitForRun(executionId);
    expect(contents.sent).toEqual([]);
  });

  it("drops the old page's subscriptions when the page reloads", async () => {
    await ipc.invoke(fromApp(), SUBSCRIBE_CHANNEL, { page: 'load-1', id: 'x', filter: {} });
    await ipc.invoke(fromApp(), SUBSCRIBE_CHANNEL, { page: 'load-1', id: 'y', filter: {} });
    await ipc.invoke(fromApp(), SUBSCRIBE_CHANNEL, { page: 'load-2', id: 'x', filter: {} });
    expect(registration.subscriptions.count(contents.id)).toBe(1);
  });

  it('removes every handler on dispose', () => {
    registration.dispose();
    expect(ipc.handlers.size).toBe(0);
  });
});
