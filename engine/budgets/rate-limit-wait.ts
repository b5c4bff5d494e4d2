import type { PluginContext } from '../plugins/contract';

/** Longest silent stretch while waiting for a slot: the node's idle clock is fed in between (ENG-05). */
const HEARTBEAT_EVERY_MS = 1_000;

/**
 * Takes the next slot of `yukta.llm.rate-limit.<provider>` and waits for it on the engine clock,
 * heartbeating so a long wait does not look idle; rejects when the node's signal fires.
 */
export async function waitForRateLimit(ctx: PluginContext, provider: string): Promise<void> {
  const wait = ctx.services.rateLimits.reserve(provider);
  if (wait <= 0) return;
  ctx.log.debug(`waiting ${Math.ceil(wait)} ms for a slot of yukta.llm.rate-limit.${provider}`);
  const until = ctx.services.now() + wait;
  for (let left = wait; left > 0; left = until - ctx.services.now()) {
    ctx.heartbeat();
    await ctx.services.sleep(Math.min(left, HEARTBEAT_EVERY_MS), ctx.signal);
  }
  ctx.heartbeat();
}
