import { z } from 'zod';
import { definePlugin } from '../../contract';
import { conditionSyntaxError, evaluateCondition } from '../../expressions/condition';

/** Port of messages no route matched. */
export const OTHERWISE_PORT = 'default';

const Route = z.strictObject({
  /** Output port of this route. */
  port: z
    .string()
    .min(1)
    .max(128)
    .refine((p) => p !== OTHERWISE_PORT && p !== 'error', 'port "default" and "error" are reserved'),
  /** CEL condition over `payload` and `metadata`, e.g. `payload.amount > 100`. */
  when: z
    .string()
    .min(1)
    .max(2000)
    .superRefine((expr, ctx) => {
      const problem = conditionSyntaxError(expr);
      if (problem) ctx.addIssue({ code: 'custom', message: `not a valid CEL condition: ${problem}` });
    }),
});

const RouterConfig = z.strictObject({
  routes: z
    .array(Route)
    .max(50)
    .default([])
    .refine((routes) => new Set(routes.map((r) => r.port)).size === routes.length, 'each route needs its own port'),
  /** `first` sends a message to the first matching route; `all` to every matching route. */
  mode: z.enum(['first', 'all']).default('first'),
});

/** Sends each message to the ports whose conditions hold, else to `default` (EXT-01 ROUTER). */
export const routerPlugin = definePlugin({
  type: 'ROUTER',
  kind: 'processor',
  title: 'Router',
  description: 'Sends each message to the routes whose condition holds (CEL), else to "default".',
  configSchema: RouterConfig,
  defaultConfig: { routes: [{ port: 'yes', when: 'payload.ok == true' }], mode: 'first' },
  outputs: [OTHERWISE_PORT],
  outputsFromConfig: { list: 'routes', key: 'port' },
  process(message, config, ctx) {
    const scope = { payload: message.payload, metadata: message.metadata };
    const ports: string[] = [];
    for (const route of config.routes) {
      if (!evaluateCondition(route.when, scope, ctx.nodeId)) continue;
      ports.push(route.port);
      if (config.mode === 'first') break;
    }
    if (ports.length === 0) ports.push(OTHERWISE_PORT);
    return ports.map((port) => ({ payload: message.payload, metadata: message.metadata, port }));
  },
});
