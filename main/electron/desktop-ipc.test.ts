import { describe, expect, it } from 'vitest';
import { DESKTOP_CHANNELS } from '../../shared/desktop/desktop-bridge';
import { createTrustedSenderCheck } from '../ipc/trusted-sender';
import type { IpcInvokeListener } from '../ipc/ipc-types';
import { registerDesktopIpc } from './desktop-ipc';
import { fakeContents } from './test-support/fake-electron';

function setup() {
  const handlers = new Map<string, IpcInvokeListener>();
  const calls: string[] = [];
  const registration = registerDesktopIpc(
    { handle: (c, h) => void handlers.set(c, h), removeHandler: (c) => void handlers.delete(c) },
    {
      isTrustedSender: createTrustedSenderCheck(),
      host: () => (calls.push('host'), { kind: 'remote', url: 'https://yukta.example.com' }),
      connect: async (url, key) => (calls.push(`connect ${url} ${key}`), { ok: true }),
      disconnect: async () => void calls.push('disconnect'),
      filesReady: () => void calls.push('filesReady'),
      openFileDialog: () => void calls.push('openFileDialog'),
    },
  );
  return { handlers, calls, registration };
}

const trusted = { url: 'app://studio/index.html', parent: null };
const UNTRUSTED = [null, { url: 'https://evil.example/', parent: null }, { url: 'app://studio/index.html', parent: { url: 'app://studio/' } }];

describe('STU-08 desktop bridge IPC (main side)', () => {
  it('refuses every channel from an untrusted frame, before anything runs', async () => {
    const { handlers, calls } = setup();
    expect([...handlers.keys()].sort()).toEqual(
      [
        DESKTOP_CHANNELS.connect,
        DESKTOP_CHANNELS.disconnect,
        DESKTOP_CHANNELS.filesReady,
        DESKTOP_CHANNELS.host,
        DESKTOP_CHANNELS.nativeEdit,
        DESKTOP_CHANNELS.openDialog,
      ].sort(),
    );
    const sender = fakeContents();
    for (const [channel, handler] of handlers) {
      for (const frame of UNTRUSTED)
        expect(await handler({ sender, senderFrame: frame }, { url: 'x', apiKey: 'y' }), channel).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    }
    expect(calls).toEqual([]);
    expect(sender.edits).toEqual([]);
  });

  it('answers the studio window: host, connect (parsed), disconnect, files ready, native edits of known names only', async () => {
    const { handlers, calls, registration } = setup();
    const sender = fakeContents();
    const call = (channel: string, arg?: unknown) => handlers.get(channel)!({ sender, senderFrame: trusted }, arg);
    expect(await call(DESKTOP_CHANNELS.host)).toEqual({ ok: true, value: { kind: 'remote', url: 'https://yukta.example.com' } });
    expect(await call(DESKTOP_CHANNELS.connect, { url: 'https://yukta.example.com', apiKey: 'k'.repeat(20) })).toEqual({ ok: true, value: { ok: true } });
    expect(await call(DESKTOP_CHANNELS.connect, { url: 'https://yukta.example.com', apiKey: 'k'.repeat(600) })).toMatchObject({
      ok: false,
      error: { code: 'BAD_INPUT', message: expect.stringContaining('apiKey') },
    });
    expect(await call(DESKTOP_CHANNELS.connect, { url: 'x', apiKey: 'y', extra: 1 })).toMatchObject({ ok: false, error: { code: 'BAD_INPUT' } });
    expect(await call(DESKTOP_CHANNELS.disconnect)).toEqual({ ok: true, value: null });
    expect(await call(DESKTOP_CHANNELS.filesReady)).toEqual({ ok: true, value: null });
    expect(await call(DESKTOP_CHANNELS.openDialog)).toEqual({ ok: true, value: null });
    expect(await call(DESKTOP_CHANNELS.nativeEdit, 'copy')).toEqual({ ok: true, value: null });
    for (const edit of ['close', 'executeJavaScript', '__proto__', 'loadURL'])
      expect(await call(DESKTOP_CHANNELS.nativeEdit, edit)).toMatchObject({ ok: false, error: { code: 'BAD_INPUT' } });
    expect(sender.edits).toEqual(['copy']);
    expect(calls).toEqual(['host', `connect https://yukta.example.com ${'k'.repeat(20)}`, 'disconnect', 'filesReady', 'openFileDialog']);
    registration.dispose();
    expect(handlers.size).toBe(0);
  });
});
