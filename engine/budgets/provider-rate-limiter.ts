import type { Clock } from '../runtime/clock';

/**
 * `yukta.llm.rate-limit.<provider>` (requests per minute): spaces the calls to a provider across every
 * node and run of the engine (EXT-03). Calls are spaced evenly, 60000 / rpm ms apart, on the engine clock
 * (virtual in tests): the first call goes at once, each next one takes the next free slot. A slot is
 * taken when it is handed out, so a caller that gives up while waiting still spends it (conservative).
 */
export class ProviderRateLimiter {
  private readonly nextFree = new Map<string, number>();

  constructor(
    private readonly clock: Clock,
    private readonly perMinute: Readonly<Record<string, number>>,
  ) {}

  /** Requests per minute of a provider; undefined when it has no limit. */
  limitOf(provider: string): number | undefined {
    const rpm = this.perMinute[provider];
    return rpm !== undefined && rpm > 0 ? rpm : undefined;
  }

  /** Takes the provider's next slot; returns how long to wait for it (0: go now). */
  reserve(provider: string): number {
    const rpm = this.limitOf(provider);
    if (rpm === undefined) return 0;
    const now = this.clock.now();
    const slot = Math.max(now, this.nextFree.get(provider) ?? now);
    this.nextFree.set(provider, slot + 60_000 / rpm);
    return slot - now;
  }
}
