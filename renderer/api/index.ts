import { createStudioClient, type StudioClient } from '../../shared/api/client';
import type { StudioTransport } from '../../shared/api/transport';
import { findBridge } from './bridge';
import { createHttpTransport } from './http-transport';
import { createIpcTransport } from './ipc-transport';

export type TransportKind = 'ipc' | 'http';

/** Picks the transport once at startup: the preload bridge in the desktop app, HTTP + SSE in a browser. */
export function chooseTransport(scope: unknown = globalThis): { kind: TransportKind; transport: StudioTransport } {
  const bridge = findBridge(scope);
  return bridge ? { kind: 'ipc', transport: createIpcTransport(bridge) } : { kind: 'http', transport: createHttpTransport() };
}

/** The app's one StudioApi client; the rest of the renderer does not know which transport is under it. */
export function createAppClient(scope: unknown = globalThis): { kind: TransportKind; client: StudioClient } {
  const { kind, transport } = chooseTransport(scope);
  return { kind, client: createStudioClient(transport) };
}

export type { StudioClient };
export { StudioApiError } from '../../shared/api/errors';
