/** The first pause after a lost or refused connection, and the longest (SCL-01). */
export const RECONNECT_BASE_MS = 250;
export const RECONNECT_MAX_MS = 30_000;

/**
 * How long a worker waits before trying the host addresses again after `failures` rounds in a row found none
 * that took it: doubling from 250 ms up to 30 s, with equal jitter (half fixed, half random), so workers that
 * lost one host together do not come back together.
 */
export function reconnectPause(failures: number, random: () => number = Math.random): number {
  const capped = Math.min(RECONNECT_MAX_MS, RECONNECT_BASE_MS * 2 ** Math.min(failures, 20));
  return Math.round(capped / 2 + (random() * capped) / 2);
}
