import { createContext, useContext } from 'react';
import type { Whoami } from '../../../shared/api/security.schema';

/** Who the studio is signed in as (SEC-01), and how to sign out; null outside a browser studio with keys. */
export interface Account {
  whoami: Whoami;
  /** Forgets the key and starts over at the sign-in screen; null when no key is needed. */
  signOut: (() => void) | null;
}

export const AccountContext = createContext<Account | null>(null);

export function useAccount(): Account | null {
  return useContext(AccountContext);
}
