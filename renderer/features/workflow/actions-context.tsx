import { createContext, useContext, type ReactNode } from 'react';
import type { StudioActions } from './workflow-actions';

const ActionsContext = createContext<StudioActions | null>(null);

/** Gives the studio's one actions object to components React Flow renders (nodes), which get no props from us. */
export function ActionsProvider({ actions, children }: { actions: StudioActions; children: ReactNode }) {
  return <ActionsContext.Provider value={actions}>{children}</ActionsContext.Provider>;
}

/** The studio's actions, or null outside the studio (a node drawn in a test canvas). */
export function useActions(): StudioActions | null {
  return useContext(ActionsContext);
}
