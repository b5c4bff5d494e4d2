import type { LeaseStatus } from '../../engine/index';

/** One line for the log when the lease's role or leader changes (SCL-02). */
export function describeLeaseStatus(status: LeaseStatus): string {
  const leader = status.leader ? `${status.leader.name}${status.leader.url ? ` (${status.leader.url})` : ''}` : null;
  if (status.role === 'leader') return `leader (fencing number ${status.fence}): this host admits runs`;
  if (status.role === 'deposed')
    return `stepped down for good: another host took the lease${status.refusedWrites ? " and the database refused this host's writes" : ''}; read-only until restarted`;
  return `standby (read-only)${leader ? ` — leader is ${leader}` : ' — no leader holds the lease; taking it at the next look'}`;
}
