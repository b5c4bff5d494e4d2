import type { EventFilter, StudioEvent } from '../events/events';
import type { ApiResult } from './errors';

/** A batch listener: events arrive in batches, never one message per event. */
export type EventBatchListener = (batch: StudioEvent[]) => void;

/**
 * How a client reaches the host. Implemented by IPC (preload bridge), HTTP (REST + SSE) and an in-memory
 * pair for tests; the client above it does not know which one it uses.
 */
export interface StudioTransport {
  invoke(operation: string, input: unknown): Promise<ApiResult<unknown>>;
  subscribe(filter: EventFilter, listener: EventBatchListener): () => void;
}
