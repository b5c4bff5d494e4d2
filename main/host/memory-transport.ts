import type { Caller } from '../../shared/api/roles';
import type { StudioTransport } from '../../shared/api/transport';
import type { StudioHost } from './studio-host';

/**
 * A transport pair in one process, for tests and embedding. Inputs and outputs go through a JSON round
 * trip, as they would over IPC or HTTP, so nothing passes by reference that a real transport would copy.
 */
export function createMemoryTransport(host: StudioHost, caller: Caller): StudioTransport {
  const copy = <T>(value: T): T => (value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T));
  return {
    invoke: async (operation, input) => copy(await host.invoke(operation, copy(input), caller)),
    subscribe: (filter, listener) => host.subscribe(copy(filter), (batch) => listener(copy(batch))),
  };
}
