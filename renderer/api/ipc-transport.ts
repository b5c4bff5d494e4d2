import { ApiErrorData, type ApiResult } from '../../shared/api/errors';
import type { StudioTransport } from '../../shared/api/transport';
import type { YuktaBridge } from '../../shared/api/bridge';
import { parseEventBatch } from './event-batch';

/** StudioTransport over the desktop preload bridge; results already arrive as data. */
export function createIpcTransport(bridge: YuktaBridge): StudioTransport {
  return {
    async invoke(operation, input) {
      try {
        return normaliseResult(await bridge.invoke(operation, input));
      } catch (error) {
        return { ok: false, error: { code: 'UNAVAILABLE', message: `the studio host did not answer ${operation}: ${messageOf(error)}` } };
      }
    },
    subscribe(filter, listener) {
      return bridge.subscribe(filter, (batch) => {
        const events = parseEventBatch(batch);
        if (events.length) listener(events);
      });
    },
  };
}

function normaliseResult(raw: unknown): ApiResult<unknown> {
  if (raw && typeof raw === 'object' && 'ok' in raw) {
    const result = raw as { ok: unknown; value?: unknown; error?: unknown };
    if (result.ok === true) return { ok: true, value: result.value };
    const error = ApiErrorData.safeParse(result.error);
    if (error.success) return { ok: false, error: error.data };
  }
  return { ok: false, error: { code: 'INTERNAL', message: 'the studio host sent a malformed answer' } };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
