import { createStudioClient, type StudioClient } from '../../shared/api/client';
import type { StudioTransport } from '../../shared/api/transport';
import { findBridge } from './bridge';
import type { Credentials } from './credentials';
import { createHttpTransport } from './http-transport';
import { createIpcTransport } from './ipc-transport';

export type TransportKind = 'ipc' | 'http';

/**
 * Picks the transport once at startup: the preload bridge in the desktop app, HTTP + SSE in a browser
 * (presenting the signed-in key of `credentials`, when there is one).
 */
export function chooseTransport(scope: unknown = globalThis, credentials?: Credentials): { kind: TransportKind; transport: StudioTransport } {
  const bridge = findBridge(scope);
  return bridge ? { kind: 'ipc', transport: createIpcTransport(bridge) } : { kind: 'http', transport: createHttpTransport(credentials ? { credentials } : {}) };
}

/** The app's one StudioApi client; the rest of the renderer does not know which transport is under it. */
export function createAppClient(scope: unknown = globalThis, credentials?: Credentials): { kind: TransportKind; client: StudioClient } {
  const { kind, transport } = chooseTransport(scope, credentials);
  return { kind, client: createStudioClient(transport) };
}

export type { StudioClient };
export { StudioApiError } from '../../shared/api/errors';
