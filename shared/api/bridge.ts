import type { ApiResult } from './errors';
import type { EventFilter, StudioEvent } from '../events/events';

/**
 * What the preload exposes to the renderer as `window.yukta` — only these two functions, never
 * `ipcRenderer`. One declaration for both sides: the preload implements it (main/preload/create-bridge.ts),
 * the renderer finds it (renderer/api/bridge.ts). Kept free of runtime imports: the sandboxed preload
 * bundles it.
 */
export interface YuktaBridge {
  /** Calls one StudioApi operation; failures come back as `{ok: false, error}`, never as a rejection. */
  invoke(operation: string, input: unknown): Promise<ApiResult<unknown>>;
  /** Subscribes to the host's events; batches arrive as they are flushed. Returns the unsubscribe function. */
  subscribe(filter: EventFilter, listener: (batch: StudioEvent[]) => void): () => void;
}
