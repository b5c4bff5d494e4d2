/**
 * Node types the worker process tests give both the host (the local plugin: type, schema, timeouts) and the
 * `yukta worker` children (`--plugins main/test-support/worker-test-plugins.ts`). What a worker does may depend
 * on its environment: `TEST_WORKER` names it in outputs, `TEST_PARTIAL_HANG=1` makes PARTIAL hang after its first part.
 */
import { z } from 'zod';
import { definePlugin, type Plugin } from '../../engine/index';

const Config = z.object({});
const base = { kind: 'processor' as const, configSchema: Config, defaultConfig: {}, outputs: ['out'] };

/** Waits `payload.ms` (abortable, heartbeating), then says which worker ran it. */
const who = definePlugin({
  ...base,
  type: 'WHO',
  title: 'Who',
  description: 'Waits payload.ms, then names the worker.',
  async process(m, _c, ctx) {
    const ms = (m.payload as { ms?: unknown }).ms;
    if (typeof ms === 'number' && ms > 0) {
      for (let left = ms; left > 0; left -= 200) {
        await ctx.sleep(Math.min(200, left));
        ctx.heartbeat();
      }
    }
    return [{ payload: { ...(m.payload as object), ranOn: process.env.TEST_WORKER ?? 'host' } }];
  },
});

/** Emits part 1, logs `first part sent`, then (with TEST_PARTIAL_HANG=1) waits until aborted; else emits part 2. */
const partial = definePlugin({
  ...base,
  type: 'PARTIAL',
  title: 'Partial',
  description: 'Two parts, maybe hanging between them.',
  process(_m, _c, ctx) {
    return (async function* () {
      yield { payload: { part: 1, ranOn: process.env.TEST_WORKER } };
      ctx.log.info('first part sent');
      if (process.env.TEST_PARTIAL_HANG === '1')
        await new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason), { once: true }));
      yield { payload: { part: 2, ranOn: process.env.TEST_WORKER } };
    })();
  },
});

/** Emits `payload.count` outputs as fast as credit allows, counting how many it has handed over. */
const many = definePlugin({
  ...base,
  type: 'MANY',
  title: 'Many',
  description: 'payload.count outputs.',
  process(m) {
    const count = (m.payload as { count: number }).count;
    return (function* () {
      for (let i = 0; i < count; i++) yield { payload: { i } };
    })();
  },
});

export const plugins: Array<Plugin<never>> = [who, partial, many] as unknown as Array<Plugin<never>>;
