import { ShieldCheck, ShieldAlert } from 'lucide-react';
import { useApi } from '../../api/api-context';
import { leaderLabel, readOnlyReason, useHa, useHaPolling } from '../../store/ha-store';

/** The app bar's "Leader" / "Standby (read-only) — leader is <host>" on a host of an active/standby pair (SCL-02); nothing on a single server. */
export function LeaderBadge() {
  useHaPolling(useApi());
  const status = useHa((s) => s.status);
  if (status === null || status.mode === 'single') return null;
  const leading = status.role === 'leader';
  const text = leading
    ? 'Leader'
    : status.role === 'deposed'
      ? 'Stepped down (read-only)'
      : `Standby (read-only)${status.leader ? ` — leader is ${leaderLabel(status.leader)}` : ''}`;
  const title = leading ? `This host leads its active/standby pair (fencing number ${status.fence}).` : readOnlyReason(status)!;
  return (
    <span className={`leader-badge ${leading ? 'is-leader' : 'is-standby'}`} role="status" title={title} data-testid="leader-badge">
      {leading ? <ShieldCheck size={14} aria-hidden="true" /> : <ShieldAlert size={14} aria-hidden="true" />} {text}
    </span>
  );
}
