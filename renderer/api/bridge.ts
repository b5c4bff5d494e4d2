import type { ApiResult } from '../../shared/api/errors';
import type { EventFilter, StudioEvent } from '../../shared/events/events';

/**
 * The preload bridge as the renderer sees it (`window.yukta`). Declared structurally here because the
 * renderer may not import main/ or electron.
 */
export interface YuktaBridge {
  invoke(operation: string, input: unknown): Promise<ApiResult<unknown>>;
  subscribe(filter: EventFilter, listener: (batch: StudioEvent[]) => void): () => void;
}

/** The bridge when running inside the desktop app, or null in a plain browser. */
export function findBridge(scope: unknown = globalThis): YuktaBridge | null {
  const candidate = (scope as { yukta?: unknown }).yukta;
  if (!candidate || typeof candidate !== 'object') return null;
  const bridge = candidate as Partial<YuktaBridge>;
  return typeof bridge.invoke === 'function' && typeof bridge.subscribe === 'function' ? (bridge as YuktaBridge) : null;
}
