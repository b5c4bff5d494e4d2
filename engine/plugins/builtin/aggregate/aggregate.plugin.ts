import { z } from 'zod';
import { DEFAULT_PORT } from '../../../../shared/workflow/engine-policy.schema';
import type { OutputMessage } from '../../../runtime/message';
import { definePlugin } from '../../contract';

const AggregateConfig = z.strictObject({
  /**
   * `split`: collect the pieces of each SPLIT group and emit them in order once all have arrived;
   * `count`: emit every `size` messages; `all`: emit everything once the input ends. Leftovers are
   * emitted when the input ends.
   */
  mode: z.enum(['split', 'count', 'all']).default('all'),
  size: z.number().int().min(1).max(1_000_000).default(100),
});

interface Groups {
  pieces: Map<string, unknown[]>;
  batch: unknown[];
}

function stateOf(state: Record<string, unknown>): Groups {
  return ((state['aggregate'] as Groups | undefined) ??= { pieces: new Map(), batch: [] });
}

/** Collects messages into one `{ items: [...] }` message (EXT-01 AGGREGATE). */
export const aggregatePlugin = definePlugin({
  type: 'AGGREGATE',
  kind: 'processor',
  title: 'Aggregate',
  description: 'Collects messages (a SPLIT group, every N, or all) into one message with an items list.',
  configSchema: AggregateConfig,
  defaultConfig: { mode: 'all' },
  outputs: [DEFAULT_PORT],
  process(message, config, ctx) {
    const groups = stateOf(ctx.state);
    const group = message.metadata['split.group'];
    if (config.mode === 'split' && group !== undefined) {
      const count = Number(message.metadata['split.count']);
      const items = groups.pieces.get(group) ?? new Array<unknown>(count);
      items[Number(message.metadata['split.index'])] = message.payload;
      groups.pieces.set(group, items);
      if (items.filter((_, i) => i in items).length < count) return;
      groups.pieces.delete(group);
      return [{ payload: { items } }];
    }
    groups.batch.push(message.payload);
    if (config.mode === 'count' && groups.batch.length >= config.size) return [{ payload: { items: groups.batch.splice(0) } }];
    return undefined;
  },
  finish(_config, ctx) {
    const groups = stateOf(ctx.state);
    const out: OutputMessage[] = [];
    for (const items of groups.pieces.values()) out.push({ payload: { items: items.filter((_, i) => i in items), partial: true } });
    if (groups.batch.length) out.push({ payload: { items: groups.batch.splice(0) } });
    groups.pieces.clear();
    return out;
  },
});
