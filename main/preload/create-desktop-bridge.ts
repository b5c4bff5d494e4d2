import { isCommandId, isNativeEdit, type CommandId } from '../../shared/desktop/commands';
import { DESKTOP_CHANNELS, type ConnectOutcome, type DesktopBridge, type HostTarget, type OpenedFile } from '../../shared/desktop/desktop-bridge';
import type { IpcRendererLike } from './create-bridge';

/** Largest file text passed on (main caps workflow files at 1 MiB; UTF-16 length is at most the byte length). */
const MAX_FILE_TEXT = 1024 * 1024;

/** Parse, don't cast: only the shapes main sends get through to the page. */
function openedFile(value: unknown): OpenedFile | null {
  if (!value || typeof value !== 'object') return null;
  const { name, text, refused } = value as Record<string, unknown>;
  if (typeof name !== 'string' || name.length > 256) return null;
  if (typeof text === 'string' && text.length <= MAX_FILE_TEXT) return { name, text };
  if (typeof refused === 'string' && refused.length <= 1000) return { name, refused };
  return null;
}

function unwrap(result: unknown): unknown {
  const r = result as { ok?: unknown; value?: unknown; error?: { message?: unknown } } | null;
  if (r?.ok === true) return r.value;
  throw new Error(typeof r?.error?.message === 'string' ? r.error.message : 'the desktop app did not answer');
}

function hostTarget(value: unknown): HostTarget {
  const v = value as { kind?: unknown; url?: unknown } | null;
  return v?.kind === 'remote' && typeof v.url === 'string' ? { kind: 'remote', url: v.url } : { kind: 'local' };
}

function connectOutcome(value: unknown): ConnectOutcome {
  const v = value as { ok?: unknown; field?: unknown; message?: unknown } | null;
  if (v?.ok === true) return { ok: true };
  return {
    ok: false,
    field: v?.field === 'apiKey' ? 'apiKey' : 'url',
    message: typeof v?.message === 'string' ? v.message : 'the server could not be checked',
  };
}

/**
 * Builds `window.yuktaDesktop` on top of ipcRenderer (STU-08). Menu commands and opened files from main
 * are checked before any page listener sees them (only known command ids; files of the expected shape);
 * the page never gets ipcRenderer or the IPC event objects.
 */
export function createDesktopBridge(ipc: IpcRendererLike): DesktopBridge {
  const commandListeners = new Set<(id: CommandId) => void>();
  const fileListeners = new Set<(file: OpenedFile) => void>();
  ipc.on(DESKTOP_CHANNELS.command, (_event, id) => {
    if (isCommandId(id)) for (const listener of commandListeners) listener(id);
  });
  ipc.on(DESKTOP_CHANNELS.openFile, (_event, raw) => {
    const file = openedFile(raw);
    if (file) for (const listener of fileListeners) listener(file);
  });
  return {
    onCommand(listener) {
      commandListeners.add(listener);
      return () => void commandListeners.delete(listener);
    },
    onOpenFile(listener) {
      fileListeners.add(listener);
      // Main holds files opened before the page listened (a launch with a file) until it hears this.
      if (fileListeners.size === 1) ipc.invoke(DESKTOP_CHANNELS.filesReady).catch(() => undefined);
      return () => void fileListeners.delete(listener);
    },
    nativeEdit(edit) {
      if (isNativeEdit(edit)) ipc.invoke(DESKTOP_CHANNELS.nativeEdit, edit).catch(() => undefined);
    },
    openFileDialog() {
      ipc.invoke(DESKTOP_CHANNELS.openDialog).catch(() => undefined);
    },
    async host() {
      return hostTarget(unwrap(await ipc.invoke(DESKTOP_CHANNELS.host)));
    },
    async connect(url, apiKey) {
      if (typeof url !== 'string' || typeof apiKey !== 'string') return { ok: false, field: 'url', message: 'the address and the key must be text' };
      return connectOutcome(unwrap(await ipc.invoke(DESKTOP_CHANNELS.connect, { url, apiKey })));
    },
    async disconnect() {
      unwrap(await ipc.invoke(DESKTOP_CHANNELS.disconnect));
    },
  };
}
