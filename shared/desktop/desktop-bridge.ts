import type { CommandId, NativeEdit } from './commands';

/**
 * The desktop app's second preload global, `window.yuktaDesktop` (STU-08): what the native shell adds to
 * the studio — menu commands, files opened from the OS, native text editing, and the switch between the
 * local host and a team's server. Absent in a browser. (`window.yukta` stays the StudioApi bridge.)
 * Kept free of runtime imports: the sandboxed preload bundles it.
 */
export interface DesktopBridge {
  /** Menu items send command ids; only ids of the command table arrive. Returns the unsubscribe. */
  onCommand(listener: (id: CommandId) => void): () => void;
  /**
   * Workflow files opened from the command line, the OS (`open-file`, a second launch) or File → Open…,
   * already read and checked by main; files waiting before the renderer listened arrive on subscribe.
   */
  onOpenFile(listener: (file: OpenedFile) => void): () => void;
  /** Native editing in the focused text field (Electron's `webContents.copy()`…), for menu and keys. */
  nativeEdit(edit: NativeEdit): void;
  /**
   * The native open dialog for workflow files (File → Open…); the chosen files arrive on `onOpenFile`.
   * A page may not open its own file chooser without a click, which a menu command is not.
   */
  openFileDialog(): void;
  /** Which host the studio talks to. */
  host(): Promise<HostTarget>;
  /** Checks the server and key; on success main keeps them (key with safeStorage) and reloads the studio on it. */
  connect(url: string, apiKey: string): Promise<ConnectOutcome>;
  /** Back to the local host (reloads). */
  disconnect(): Promise<void>;
}

/** A file main read: its name and text, or why it was refused (size, JSON, schema, not a file). */
export type OpenedFile = { name: string; text: string } | { name: string; refused: string };

export type HostTarget = { kind: 'local' } | { kind: 'remote'; url: string };

export type ConnectOutcome = { ok: true } | { ok: false; field: 'url' | 'apiKey'; message: string };

/**
 * In the desktop app a remote server is reached through the app's own origin: `app://studio/remote/api/…`
 * is forwarded by main (which adds the key), so the page keeps its strict CSP and never holds the key.
 */
export const REMOTE_PROXY_PATH = '/remote';

/** IPC channels of the desktop bridge (main/electron/desktop-ipc.ts ↔ main/preload). */
export const DESKTOP_CHANNELS = {
  command: 'yukta:desktop:command',
  openFile: 'yukta:desktop:open-file',
  filesReady: 'yukta:desktop:files-ready',
  nativeEdit: 'yukta:desktop:native-edit',
  openDialog: 'yukta:desktop:open-dialog',
  host: 'yukta:desktop:host',
  connect: 'yukta:desktop:connect',
  disconnect: 'yukta:desktop:disconnect',
} as const;
