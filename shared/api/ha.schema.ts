import { z } from 'zod';

const Count = z.number().int().min(0);

/**
 * This host's part in an active/standby pair (SCL-02), as `ha.status` answers: `single` hosts always lead;
 * with `yukta.ha.mode=postgres` a host is `leader`, `standby` (read-only: it refuses starts, restarts and
 * resumes with `not_leader`) or `deposed` (another host took its lease and the database refused its writes:
 * read-only until it is restarted).
 */
export const HaStatus = z.object({
  mode: z.enum(['single', 'postgres']),
  role: z.enum(['leader', 'standby', 'deposed']),
  /** This host's advertised name (`yukta.ha.host-name`); null for a single server. */
  self: z.string().nullable(),
  /** The leader as the lease row names it; null while no host holds a live lease (and for a single server). */
  leader: z.object({ name: z.string(), url: z.string().nullable() }).nullable(),
  /** The fencing number this host writes under (null before it first leads). */
  fence: z.number().int().nullable(),
  /** `yukta.ha.lease` in milliseconds (null for a single server). */
  leaseMs: z.number().int().nullable(),
  /** `yukta.ha.step-downs` by reason: its lease ran out on it, another host took it, its writes were refused, it released it. */
  stepDowns: z.object({ expired: Count, lost: Count, fenced: Count, released: Count }),
  /** `yukta.ha.refused-writes`: batches the database refused under a stale fencing number. */
  refusedWrites: Count,
});
export type HaStatus = z.infer<typeof HaStatus>;

/** What a host without a lease answers (`yukta.ha.mode=single`): it always leads. */
export const SINGLE_SERVER_STATUS: HaStatus = {
  mode: 'single',
  role: 'leader',
  self: null,
  leader: null,
  fence: null,
  leaseMs: null,
  stepDowns: { expired: 0, lost: 0, fenced: 0, released: 0 },
  refusedWrites: 0,
};
