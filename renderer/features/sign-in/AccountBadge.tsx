import './sign-in.css';
import { LogOut, UserRound } from 'lucide-react';
import { useAccount } from './account-context';

/** The app bar's account: the caller's role (and key), and Sign out while the server needs a key. */
export function AccountBadge() {
  const account = useAccount();
  if (account === null || !account.whoami.keysRequired) return null;
  const { whoami, signOut } = account;
  const scope = whoami.sessions ? ` · sessions ${whoami.sessions.join(', ')}` : '';
  return (
    <div className="account-badge" data-testid="account-badge" title={`Signed in as ${whoami.actor}${scope}`}>
      <UserRound size={14} aria-hidden="true" />
      <span className="account-role" data-testid="account-role">
        {whoami.role}
      </span>
      <span className="account-actor">{whoami.actor.replace(/^key:/, '')}</span>
      {signOut && (
        <button type="button" className="icon-button" onClick={signOut} aria-label="Sign out" title="Sign out" data-testid="sign-out">
          <LogOut size={14} aria-hidden="true" />
        </button>
      )}
    </div>
  );
}
