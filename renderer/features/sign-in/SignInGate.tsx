import { useCallback, useEffect, useMemo, useState, type ReactNode } from 'react';
import type { StudioClient } from '../../../shared/api/client';
import { StudioApiError } from '../../../shared/api/errors';
import type { Whoami } from '../../../shared/api/security.schema';
import type { Credentials } from '../../api/credentials';
import { AccountContext, type Account } from './account-context';
import { SignInScreen } from './SignInScreen';

type Gate = { phase: 'checking' } | { phase: 'sign-in'; message: string | null; busy: boolean } | { phase: 'ready'; whoami: Whoami | null; prompted: boolean };

/** Reloads the page: signing out drops everything the previous key could see. */
const reloadPage = (): void => window.location.reload();

/**
 * The gate's phase: checked once on mount, then again with each key given on the sign-in screen; a key the
 * server stops accepting sends a ready studio back to sign in.
 */
function useGate(client: StudioClient, credentials: Credentials) {
  const [gate, setGate] = useState<Gate>({ phase: 'checking' });

  /** Where the gate goes next, from the server's answer to "who am I" with the key held now. */
  const resolve = useCallback(
    async (prompted: boolean): Promise<Gate> => {
      const hadKey = credentials.key() !== null;
      try {
        return { phase: 'ready', whoami: await client['auth.whoami']({}), prompted };
      } catch (error) {
        if (!(error instanceof StudioApiError) || error.code !== 'UNAUTHORIZED') {
          // Not an answer about keys (the server is down, or older): the studio shows its own errors.
          return { phase: 'ready', whoami: null, prompted };
        }
        credentials.clear();
        return { phase: 'sign-in', message: hadKey ? `${error.message}.` : null, busy: false };
      }
    },
    [client, credentials],
  );

  useEffect(() => {
    let live = true;
    void resolve(false).then((next) => live && setGate(next));
    return () => {
      live = false;
    };
  }, [resolve]);
  useEffect(
    () =>
      credentials.onRejected((message) => {
        credentials.clear();
        setGate((g) => (g.phase === 'ready' ? { phase: 'sign-in', message: `The server no longer accepts this key: ${message}.`, busy: false } : g));
      }),
    [credentials],
  );
  /** A key given on the sign-in screen: held, then checked with the server. */
  const signIn = (key: string) => {
    credentials.store(key);
    setGate({ phase: 'sign-in', message: null, busy: true });
    void resolve(true).then(setGate);
  };
  return { gate, signIn };
}

/** The signed-in account (role, sign out when keys are required) the studio reads from context, or null. */
function useAccount(gate: Gate, credentials: Credentials, onSignedOut: () => void): Account | null {
  const signOut = useCallback(() => {
    credentials.clear();
    onSignedOut();
  }, [credentials, onSignedOut]);
  return useMemo<Account | null>(
    () => (gate.phase === 'ready' && gate.whoami ? { whoami: gate.whoami, signOut: gate.whoami.keysRequired ? signOut : null } : null),
    [gate, signOut],
  );
}

/**
 * Puts the browser studio behind its server's API keys (SEC-01): asks who we are; with keys required and
 * none (or a wrong one) in this tab, shows the sign-in screen; once signed in renders the studio with the
 * account (role, sign out) in context. A key the server stops accepting brings the screen back.
 * `children` gets whether the user had to sign in first (reads started before that were refused).
 */
export function SignInGate({
  client,
  credentials,
  onSignedOut = reloadPage,
  children,
}: {
  client: StudioClient;
  credentials: Credentials;
  onSignedOut?: () => void;
  children: (prompted: boolean) => ReactNode;
}) {
  const { gate, signIn } = useGate(client, credentials);
  const account = useAccount(gate, credentials, onSignedOut);

  if (gate.phase === 'checking') return <div className="sign-in-checking" data-testid="sign-in-checking" aria-busy="true" />;
  if (gate.phase === 'sign-in') {
    return <SignInScreen message={gate.message} busy={gate.busy} onSubmit={signIn} />;
  }
  return <AccountContext.Provider value={account}>{children(gate.prompted)}</AccountContext.Provider>;
}
