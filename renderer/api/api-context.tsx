import { createContext, useContext, type ReactNode } from 'react';
import type { StudioClient } from '../../shared/api/client';

const ApiContext = createContext<StudioClient | null>(null);

/** Provides the StudioApi client to the tree; tests pass a client over an in-memory transport. */
export function ApiProvider({ client, children }: { client: StudioClient; children: ReactNode }) {
  return <ApiContext.Provider value={client}>{children}</ApiContext.Provider>;
}

export function useApi(): StudioClient {
  const client = useContext(ApiContext);
  if (!client) throw new Error('useApi must be used inside <ApiProvider>');
  return client;
}
