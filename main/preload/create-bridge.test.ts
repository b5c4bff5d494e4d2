import { describe, expect, it, vi } from 'vitest';
import type { ApiResult } from '../../shared/api/errors';
import type { StudioEvent } from '../../shared/events/events';
import { EVENTS_CHANNEL, SUBSCRIBE_CHANNEL, UNSUBSCRIBE_CHANNEL } from '../ipc/ipc-channels';
import { createBridge, newPageToken, type IpcRendererLike } from './create-bridge';

class FakeIpcRenderer implements IpcRendererLike {
  readonly calls: Array<{ channel: string; args: unknown[] }> = [];
  private eventListener: ((event: unknown, ...args: unknown[]) => void) | null = null;
  answer: (channel: string, args: unknown[]) => Promise<unknown> = async () => ({ ok: true, value: null });

  invoke(channel: string, ...args: unknown[]): Promise<unknown> {
    this.calls.push({ channel, args });
    return this.answer(channel, args);
  }
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): void {
    if (channel === EVENTS_CHANNEL) this.eventListener = listener;
  }
  push(id: string, batch: unknown): void {
    this.eventListener?.({ sender: 'ipc-internals' }, id, batch);
  }
}

const event = (seq: number): StudioEvent => ({ type: 'LOG', seq, executionId: 'e', at: 0, level: 'info', text: `line ${seq}` });

describe('SEC-03 preload bridge', () => {
  it('exposes only invoke and subscribe', () => {
    expect(Object.keys(createBridge(new FakeIpcRenderer(), 'page')).sort()).toEqual(['invoke', 'subscribe']);
  });

  it('sends a known operation on its channel and returns the result', async () => {
    const ipc = new FakeIpcRenderer();
    ipc.answer = async () => ({ ok: true, value: [1] });
    const result = await createBridge(ipc, 'page').invoke('workflows.list', { session: 's' });
    expect(result).toEqual({ ok: true, value: [1] });
    expect(ipc.calls).toEqual([{ channel: 'yukta:op:workflows.list', args: [{ session: 's' }] }]);
  });

  it('refuses an unknown operation without calling main', async () => {
    const ipc = new FakeIpcRenderer();
    const bridge = createBridge(ipc, 'page');
    for (const name of ['nope', '__proto__', 'toString', '../subscribe']) {
      expect(await bridge.invoke(name, {})).toMatchObject({ ok: false, error: { code: 'UNKNOWN_OPERATION' } });
    }
    expect(ipc.calls).toEqual([]);
  });

  it('turns an IPC rejection into UNAVAILABLE data', async () => {
    const ipc = new FakeIpcRenderer();
    ipc.answer = async () => {
      throw new Error('An object could not be cloned.');
    };
    const result = (await createBridge(ipc, 'page').invoke('nodeTypes.list', {})) as ApiResult<unknown>;
    expect(result).toMatchObject({ ok: false, error: { code: 'UNAVAILABLE' } });
  });

  it('routes batches to their subscriber only, and unsubscribes', async () => {
    const ipc = new FakeIpcRenderer();
    const bridge = createBridge(ipc, 'page-token');
    const a: StudioEvent[][] = [];
    const b: StudioEvent[][] = [];
    const offA = bridge.subscribe({ executionId: 'e' }, (batch) => a.push(batch));
    bridge.subscribe({}, (batch) => b.push(batch));
    const [subA, subB] = ipc.calls;
    expect(subA).toEqual({ channel: SUBSCRIBE_CHANNEL, args: [{ page: 'page-token', id: 's1', filter: { executionId: 'e' } }] });
    expect(subB!.args[0]).toMatchObject({ id: 's2' });

    ipc.push('s1', [event(1), event(2)]);
    ipc.push('s2', [event(3)]);
    ipc.push('s9', [event(4)]);
    expect(a).toEqual([[event(1), event(2)]]);
    expect(b).toEqual([[event(3)]]);

    offA();
    offA();
    ipc.push('s1', [event(5)]);
    expect(a).toHaveLength(1);
    expect(ipc.calls.filter((c) => c.channel === UNSUBSCRIBE_CHANNEL)).toEqual([{ channel: UNSUBSCRIBE_CHANNEL, args: ['s1'] }]);
  });

  it('forgets a subscription that main refused', async () => {
    const ipc = new FakeIpcRenderer();
    ipc.answer = async () => ({ ok: false, error: { code: 'FORBIDDEN', message: 'no' } });
    let reported!: () => void;
    const refused = new Promise<void>((resolve) => (reported = resolve));
    const spy = vi.spyOn(console, 'error').mockImplementation(() => reported());
    const got: StudioEvent[][] = [];
    createBridge(ipc, 'p').subscribe({}, (batch) => got.push(batch));
    await refused; // the refusal is handled (and logged) after the listener is removed
    spy.mockRestore();
    ipc.push('s1', [event(1)]);
    expect(got).toEqual([]);
  });

  it('makes a fresh random page token', () => {
    const token = newPageToken();
    expect(token).toMatch(/^[0-9a-f]{32}$/);
    expect(newPageToken()).not.toBe(token);
  });
});
