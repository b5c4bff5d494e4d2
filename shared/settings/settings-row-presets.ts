// What rows of the settings table (CFG-01) share: who may change a setting and when.
export const MIB = 1024 * 1024;
const ADMIN = 'ADMIN' as const;
export const live = { apply: 'live', role: ADMIN } as const;
export const restart = { apply: 'restart', role: ADMIN } as const;
