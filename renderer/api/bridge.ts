import type { YuktaBridge } from '../../shared/api/bridge';

/** The bridge when running inside the desktop app, or null in a plain browser. */
export function findBridge(scope: unknown = globalThis): YuktaBridge | null {
  const candidate = (scope as { yukta?: unknown }).yukta;
  if (!candidate || typeof candidate !== 'object') return null;
  const bridge = candidate as Partial<YuktaBridge>;
  return typeof bridge.invoke === 'function' && typeof bridge.subscribe === 'function' ? (bridge as YuktaBridge) : null;
}
