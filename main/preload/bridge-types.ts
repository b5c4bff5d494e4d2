import type { ApiResult } from '../../shared/api/errors';
import type { EventFilter, StudioEvent } from '../../shared/events/events';

/**
 * What the preload exposes to the renderer as `window.yukta` — only these two functions, never
 * `ipcRenderer`. The renderer declares its own structural copy (renderer/api/bridge.ts) because it may
 * not import main/; keep the two in step.
 */
export interface YuktaBridge {
  /** Calls one StudioApi operation; failures come back as `{ok: false, error}`, never as a rejection. */
  invoke(operation: string, input: unknown): Promise<ApiResult<unknown>>;
  /** Subscribes to the host's events; batches arrive as they are flushed. Returns the unsubscribe function. */
  subscribe(filter: EventFilter, listener: (batch: StudioEvent[]) => void): () => void;
}
