/**
 * The parts of Electron's IPC that main/ipc uses, as structural types: Electron's own `ipcMain`,
 * `WebContents` and `WebFrameMain` satisfy them, and tests pass small fakes (no Electron binary needed).
 */

/** The frame that sent a message (Electron's `WebFrameMain`). */
export interface SenderFrameLike {
  readonly url: string;
  /** The parent frame; null for a top-level frame. */
  readonly parent?: unknown;
}

/** The page that sent a message (Electron's `WebContents`). */
export interface WebContentsLike {
  readonly id: number;
  send(channel: string, ...args: unknown[]): void;
  isDestroyed(): boolean;
  once(event: 'destroyed', listener: () => void): unknown;
}

/** Electron's `IpcMainInvokeEvent`, reduced. */
export interface IpcInvokeEventLike {
  readonly sender: WebContentsLike;
  /** Null when the frame has navigated away or been destroyed. */
  readonly senderFrame: SenderFrameLike | null;
}

export type IpcInvokeListener = (event: IpcInvokeEventLike, ...args: unknown[]) => unknown;

/** Electron's `ipcMain`, reduced to request/response handlers. */
export interface IpcMainLike {
  handle(channel: string, listener: IpcInvokeListener): void;
  removeHandler(channel: string): void;
}
