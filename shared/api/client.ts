import type { EventFilter } from '../events/events';
import { StudioApiError } from './errors';
import { OPERATION_NAMES, type OperationInput, type OperationName, type OperationOutput } from './contract';
import type { EventBatchListener, StudioTransport } from './transport';

/** The typed StudioApi: one method per operation of the contract, and the event subscription. */
export type StudioClient = {
  [K in OperationName]: (input: OperationInput<K>) => Promise<OperationOutput<K>>;
} & {
  subscribe(filter: EventFilter, listener: EventBatchListener): () => void;
};

/**
 * Builds the typed client over any transport. Failures come back as data and are re-thrown as
 * `StudioApiError`, so callers can switch on `code` and show `path`.
 */
export function createStudioClient(transport: StudioTransport): StudioClient {
  const client: Record<string, unknown> = {
    subscribe: (filter: EventFilter, listener: EventBatchListener) => transport.subscribe(filter, listener),
  };
  for (const name of OPERATION_NAMES) {
    client[name] = async (input: unknown) => {
      const result = await transport.invoke(name, input ?? {});
      if (!result.ok) throw StudioApiError.fromData(result.error);
      return result.value;
    };
  }
  return client as StudioClient;
}
