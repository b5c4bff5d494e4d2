import { useEffect } from 'react';
import { create } from 'zustand';
import type { StudioClient } from '../../shared/api/client';
import type { HaStatus } from '../../shared/api/ha.schema';

/** How often the studio reads `ha.status` on a host of an active/standby pair (a takeover shows within this). */
export const HA_POLL_MS = 2000;

/** This host's part in an active/standby pair as last read (SCL-02); null until read (or on a host without it). */
export const useHa = create<{ status: HaStatus | null; setStatus(status: HaStatus | null): void }>()((set) => ({
  status: null,
  setStatus: (status) => set({ status }),
}));

/**
 * Why the studio is read-only on this host, or null when it may run and save: a standby (or a deposed
 * leader) refuses starts, restarts and resumes, and its writes would go nowhere.
 */
export function readOnlyReason(status: HaStatus | null): string | null {
  if (status === null || status.role === 'leader') return null;
  if (status.role === 'deposed')
    return 'This host stepped down (another host took its lease): read-only until it is restarted. Run, save and control on the leader.';
  return `This host is a standby (read-only)${status.leader ? ` — leader is ${leaderLabel(status.leader)}` : ' — no host leads right now'}. Run, save and control on the leader.`;
}

export function leaderLabel(leader: NonNullable<HaStatus['leader']>): string {
  return leader.url ? `${leader.name} (${leader.url})` : leader.name;
}

/** Reads `ha.status` now and every `HA_POLL_MS` while mounted; a single server is read once (its mode cannot change while it runs). */
export function useHaPolling(api: StudioClient, schedule: (read: () => void, ms: number) => () => void = every): void {
  useEffect(() => {
    let stop: (() => void) | null = null;
    let gone = false;
    const read = async () => {
      const status = await api['ha.status']({}).catch(() => null);
      if (gone) return;
      useHa.getState().setStatus(status);
      if (status?.mode === 'single') stop?.();
    };
    void read();
    stop = schedule(() => void read(), HA_POLL_MS);
    return () => {
      gone = true;
      stop?.();
    };
  }, [api, schedule]);
}

function every(read: () => void, ms: number): () => void {
  const timer = setInterval(read, ms);
  return () => clearInterval(timer);
}
