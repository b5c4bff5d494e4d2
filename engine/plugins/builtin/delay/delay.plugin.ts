import { z } from 'zod';
import { DEFAULT_PORT } from '../../../../shared/workflow/engine-policy.schema';
import { BadInputError } from '../../../runtime/errors';
import { definePlugin } from '../../contract';
import { renderTemplate } from '../../expressions/template';

/** Longest silent stretch of a delay: it heartbeats between stretches so the idle clock stays calm. */
const SLICE_MS = 10_000;
const MAX_DELAY_MS = 24 * 3_600_000;

const DelayConfig = z.strictObject({
  /** Milliseconds, or a typed template such as `${payload.waitMs:int}`. */
  ms: z.union([z.number().int().min(0).max(MAX_DELAY_MS), z.string().regex(/^\$\{[^}]+\}$/, 'a template such as ${payload.waitMs:int}')]),
});

/** Holds each message for a time on the engine's clock (paused with the node; virtual in tests). */
export const delayPlugin = definePlugin({
  type: 'DELAY',
  kind: 'processor',
  title: 'Delay',
  description: 'Waits a number of milliseconds before passing each message on.',
  configSchema: DelayConfig,
  defaultConfig: { ms: 1000 },
  outputs: [DEFAULT_PORT],
  async process(message, config, ctx) {
    const ms =
      typeof config.ms === 'number'
        ? config.ms
        : renderTemplate(config.ms, { payload: message.payload, metadata: message.metadata, context: {}, variables: ctx.services.variables });
    if (typeof ms !== 'number' || !Number.isFinite(ms) || ms < 0 || ms > MAX_DELAY_MS) {
      throw new BadInputError(
        `node "${ctx.nodeId}": delay ${String(config.ms)} gave ${JSON.stringify(ms)}, not a number of milliseconds up to ${MAX_DELAY_MS}`,
      );
    }
    for (let left = ms; left > 0; left -= SLICE_MS) {
      await ctx.sleep(Math.min(left, SLICE_MS));
      ctx.heartbeat();
    }
    return [{ payload: message.payload, metadata: message.metadata }];
  },
});
