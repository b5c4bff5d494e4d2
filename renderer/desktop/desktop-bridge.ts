import type { DesktopBridge } from '../../shared/desktop/desktop-bridge';

export type { DesktopBridge };

const METHODS = ['onCommand', 'onOpenFile', 'nativeEdit', 'host', 'connect', 'disconnect', 'openFileDialog'] as const;

/** The desktop shell's bridge (`window.yuktaDesktop`, STU-08), or null in a plain browser. */
export function findDesktopBridge(scope: unknown = globalThis): DesktopBridge | null {
  const candidate = (scope as { yuktaDesktop?: unknown }).yuktaDesktop;
  if (!candidate || typeof candidate !== 'object') return null;
  const bridge = candidate as Record<string, unknown>;
  return METHODS.every((m) => typeof bridge[m] === 'function') ? (candidate as DesktopBridge) : null;
}
