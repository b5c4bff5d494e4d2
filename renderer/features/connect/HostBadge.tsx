import { Server } from 'lucide-react';
import { targetLabel } from '../../api/server-target';
import { useStudio } from '../../store/studio-store';
import { useServerTarget } from './connect-store';

/** The app bar's host: `Local`, or the team server the studio is on (STU-08); a click opens Connect to server. */
export function HostBadge() {
  const target = useServerTarget((s) => s.target);
  const label = targetLabel(target);
  return (
    <button
      type="button"
      className={`button host-badge${target.kind === 'remote' ? ' is-remote' : ''}`}
      onClick={() => useStudio.getState().openDialog('connect-server')}
      title={
        target.kind === 'remote' ? `On the server ${target.url} — click to change or go back to Local` : 'On this machine — click to connect to a team server'
      }
      data-testid="host-badge"
    >
      <Server size={14} aria-hidden="true" /> <span data-testid="host-label">{label}</span>
    </button>
  );
}
