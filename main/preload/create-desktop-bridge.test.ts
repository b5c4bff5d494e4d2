import { describe, expect, it } from 'vitest';
import { DESKTOP_CHANNELS } from '../../shared/desktop/desktop-bridge';
import { createDesktopBridge } from './create-desktop-bridge';

function fakeIpc(answers: Record<string, unknown> = {}) {
  const listeners = new Map<string, (event: unknown, ...args: unknown[]) => void>();
  const invoked: Array<[string, ...unknown[]]> = [];
  return {
    listeners,
    invoked,
    ipc: {
      invoke: async (channel: string, ...args: unknown[]) => (invoked.push([channel, ...args]), answers[channel] ?? { ok: true, value: null }),
      on: (channel: string, listener: (event: unknown, ...args: unknown[]) => void) => void listeners.set(channel, listener),
    },
  };
}

describe('STU-08 desktop preload bridge (window.yuktaDesktop)', () => {
  it('passes on only opened files of the expected shape, and tells main once that the page listens', () => {
    const { ipc, listeners, invoked } = fakeIpc();
    const bridge = createDesktopBridge(ipc);
    const files: unknown[] = [];
    bridge.onOpenFile((f) => files.push(f));
    bridge.onOpenFile(() => undefined);
    expect(invoked).toEqual([[DESKTOP_CHANNELS.filesReady]]);
    const send = (file: unknown) => listeners.get(DESKTOP_CHANNELS.openFile)!({}, file);
    send({ name: 'a.yukta.json', text: '{}' });
    send({ name: 'b.json', refused: 'the file is not JSON' });
    for (const bad of [null, 'x', { name: 1, text: '' }, { name: 'c', text: 'x'.repeat(1024 * 1024 + 1) }, { name: 'd' }, { name: 'e'.repeat(300), text: '' }])
      send(bad);
    expect(files).toEqual([
      { name: 'a.yukta.json', text: '{}' },
      { name: 'b.json', refused: 'the file is not JSON' },
    ]);
  });

  it('asks main for native edits of known names only, and unwraps host and connect answers', async () => {
    const { ipc, invoked } = fakeIpc({
      [DESKTOP_CHANNELS.host]: { ok: true, value: { kind: 'remote', url: 'https://t.example' } },
      [DESKTOP_CHANNELS.connect]: { ok: true, value: { ok: false, field: 'apiKey', message: 'the server refused the API key' } },
    });
    const bridge = createDesktopBridge(ipc);
    bridge.nativeEdit('paste');
    bridge.nativeEdit('executeJavaScript' as never);
    expect(invoked).toEqual([[DESKTOP_CHANNELS.nativeEdit, 'paste']]);
    expect(await bridge.host()).toEqual({ kind: 'remote', url: 'https://t.example' });
    expect(await bridge.connect('https://t.example', 'k')).toEqual({ ok: false, field: 'apiKey', message: 'the server refused the API key' });
  });
});
