/**
 * The desktop bridge's IPC handlers in main (STU-08, `window.yuktaDesktop`): which host the studio is on,
 * connect to / disconnect from a team server, native text editing, and "ready for files". Like the
 * StudioApi channels, each checks the sender frame first (SEC-03) and parses its input; answers are data.
 */
import { z } from 'zod';
import type { ApiResult } from '../../shared/api/errors';
import { isNativeEdit, type NativeEdit } from '../../shared/desktop/commands';
import { DESKTOP_CHANNELS, type ConnectOutcome, type HostTarget } from '../../shared/desktop/desktop-bridge';
import { MAX_API_KEY_LENGTH } from '../../shared/desktop/server-address';
import type { IpcInvokeEventLike, IpcMainLike, SenderFrameLike, WebContentsLike } from '../ipc/ipc-types';

/** A sender that can edit its focused field (Electron's WebContents has these). */
export type EditableContents = WebContentsLike & Partial<Record<NativeEdit, () => void>>;

export interface DesktopIpcDeps {
  isTrustedSender(frame: SenderFrameLike | null): boolean;
  host(): HostTarget;
  connect(url: string, apiKey: string): Promise<ConnectOutcome>;
  disconnect(): Promise<void>;
  /** The renderer now listens for opened files (send those waiting). */
  filesReady(sender: WebContentsLike): void;
  /** File → Open…'s native dialog. */
  openFileDialog(): void;
}

const ConnectInput = z.strictObject({ url: z.string().max(2048), apiKey: z.string().max(MAX_API_KEY_LENGTH) });

const FORBIDDEN: ApiResult<never> = { ok: false, error: { code: 'FORBIDDEN', message: 'IPC refused: the sender is not the studio window' } };

export function registerDesktopIpc(ipcMain: IpcMainLike, deps: DesktopIpcDeps): { dispose(): void } {
  const channels: string[] = [];
  const handle = (channel: string, body: (event: IpcInvokeEventLike & { sender: EditableContents }, arg: unknown) => Promise<unknown> | unknown) => {
    ipcMain.handle(channel, async (event, arg): Promise<ApiResult<unknown>> => {
      if (!deps.isTrustedSender(event.senderFrame)) return FORBIDDEN;
      try {
        return { ok: true, value: (await body(event, arg)) ?? null };
      } catch (error) {
        return { ok: false, error: { code: 'BAD_INPUT', message: error instanceof Error ? error.message : String(error) } };
      }
    });
    channels.push(channel);
  };
  handle(DESKTOP_CHANNELS.host, () => deps.host());
  handle(DESKTOP_CHANNELS.connect, (_event, arg) => {
    const input = ConnectInput.safeParse(arg);
    if (!input.success) throw new Error(`connect: ${input.error.issues[0]?.path.join('.') || 'input'} must be text of at most the allowed length`);
    return deps.connect(input.data.url, input.data.apiKey);
  });
  handle(DESKTOP_CHANNELS.disconnect, () => deps.disconnect());
  handle(DESKTOP_CHANNELS.filesReady, (event) => deps.filesReady(event.sender));
  handle(DESKTOP_CHANNELS.openDialog, () => deps.openFileDialog());
  handle(DESKTOP_CHANNELS.nativeEdit, (event, edit) => {
    if (!isNativeEdit(edit)) throw new Error('nativeEdit: unknown edit');
    event.sender[edit]?.();
  });
  return {
    dispose() {
      for (const channel of channels.splice(0)) ipcMain.removeHandler(channel);
    },
  };
}
