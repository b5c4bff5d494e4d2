import { z } from 'zod';
import { DEFAULT_PORT } from '../../../../shared/workflow/engine-policy.schema';
import { BadInputError } from '../../../runtime/errors';
import { definePlugin } from '../../contract';

const SplitConfig = z.strictObject({
  /** Where the array is: `payload` itself or a field path such as `payload.items`. */
  path: z
    .string()
    .regex(/^payload(\.[^.]+)*$/, 'a path such as payload or payload.items')
    .default('payload'),
});

function readPath(payload: unknown, path: string): unknown {
  let value = payload;
  for (const key of path.split('.').slice(1)) {
    if (value === null || typeof value !== 'object' || !Object.prototype.hasOwnProperty.call(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/**
 * Emits one message per element of an array (EXT-01 SPLIT), tagged `split.index`, `split.count` and
 * `split.group` so an AGGREGATE can put them back together. Elements are pulled as the children take them.
 */
export const splitPlugin = definePlugin({
  type: 'SPLIT',
  kind: 'processor',
  title: 'Split',
  description: 'Emits one message per element of an array in the payload.',
  configSchema: SplitConfig,
  defaultConfig: { path: 'payload' },
  outputs: [DEFAULT_PORT],
  process(message, config, ctx) {
    const items = readPath(message.payload, config.path);
    if (!Array.isArray(items)) throw new BadInputError(`node "${ctx.nodeId}": ${config.path} is not an array`);
    const count = String(items.length);
    return (function* () {
      for (let i = 0; i < items.length; i++) {
        yield { payload: items[i], metadata: { ...message.metadata, 'split.index': String(i), 'split.count': count, 'split.group': message.id } };
      }
    })();
  },
});
