import { isOperationName } from '../../shared/api/contract';
import type { ApiResult } from '../../shared/api/errors';
import type { EventFilter, StudioEvent } from '../../shared/events/events';
import { EVENTS_CHANNEL, operationChannel, SUBSCRIBE_CHANNEL, UNSUBSCRIBE_CHANNEL } from '../ipc/ipc-channels';
import type { YuktaBridge } from '../../shared/api/bridge';

/** The parts of Electron's `ipcRenderer` the bridge uses (tests pass a fake). */
export interface IpcRendererLike {
  invoke(channel: string, ...args: unknown[]): Promise<unknown>;
  on(channel: string, listener: (event: unknown, ...args: unknown[]) => void): unknown;
}

type BatchListener = (batch: StudioEvent[]) => void;

/** A random token per page load; main drops a reloaded page's old subscriptions when it sees a new one. */
export function newPageToken(): string {
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

function failure(code: 'UNKNOWN_OPERATION' | 'UNAVAILABLE', message: string): ApiResult<unknown> {
  return { ok: false, error: { code, message } };
}

/**
 * Builds `window.yukta` on top of ipcRenderer. Unknown operation names are refused here, without a
 * round trip to main; the renderer never gets ipcRenderer or the IPC event objects.
 */
export function createBridge(ipc: IpcRendererLike, pageToken: string = newPageToken()): YuktaBridge {
  const listeners = new Map<string, BatchListener>();
  let nextId = 0;
  ipc.on(EVENTS_CHANNEL, (_event, id, batch) => {
    if (typeof id === 'string' && Array.isArray(batch)) listeners.get(id)?.(batch as StudioEvent[]);
  });

  return {
    async invoke(operation: string, input: unknown): Promise<ApiResult<unknown>> {
      if (!isOperationName(operation)) return failure('UNKNOWN_OPERATION', `unknown operation "${String(operation)}"`);
      try {
        return (await ipc.invoke(operationChannel(operation), input)) as ApiResult<unknown>;
      } catch (error) {
        return failure('UNAVAILABLE', `IPC call ${operation} failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    },

    subscribe(filter: EventFilter, listener: BatchListener): () => void {
      // The id is ours, and the listener is in place before main can send a batch for it.
      const id = `s${++nextId}`;
      listeners.set(id, listener);
      ipc.invoke(SUBSCRIBE_CHANNEL, { page: pageToken, id, filter }).then(
        (result) => {
          const r = result as ApiResult<unknown>;
          if (!r.ok) {
            listeners.delete(id);
            console.error(`yukta: subscription refused: ${r.error.code} ${r.error.message}`);
          }
        },
        (error: unknown) => {
          listeners.delete(id);
          console.error('yukta: subscription failed', error);
        },
      );
      return () => {
        if (listeners.delete(id)) ipc.invoke(UNSUBSCRIBE_CHANNEL, id).catch(() => undefined);
      };
    },
  };
}
