import { z } from 'zod';

/** API roles (SEC-01): VIEWER reads; OPERATOR also starts and controls runs; ADMIN everything. */
export const Role = z.enum(['VIEWER', 'OPERATOR', 'ADMIN']);
export type Role = z.infer<typeof Role>;

const RANK: { [K in Role]: number } = { VIEWER: 0, OPERATOR: 1, ADMIN: 2 };

export function roleAllows(have: Role, need: Role): boolean {
  return RANK[have] >= RANK[need];
}

/** Who calls an operation: recorded as the actor in audits (`ui:local`, `key:<name>`, `cli`). */
export interface Caller {
  actor: string;
  role: Role;
  /** An API key limited to these sessions (SEC-01) may only touch them; absent for every session. */
  sessions?: readonly string[];
}
