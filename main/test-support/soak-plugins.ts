import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { definePlugin, type Plugin } from '../../engine/index';

/** The file every SOAK_STEP and SOAK_SINK call is written to. */
export const INVOCATIONS_FILE = 'invocations.log';

const Config = z.object({});

/**
 * The node types of the kill -9 harness: each writes its call to `<data>/invocations.log` before doing
 * anything (one line `run node message`, appended synchronously, so a SIGKILL right after still leaves it in
 * the page cache). SOAK_STEP: records the call, waits `payload.delayMs` on the engine clock, passes the payload on. */
export function soakPlugins(dataDir: string): Array<Plugin<never>> {
  const file = join(dataDir, INVOCATIONS_FILE);
  const record = (executionId: string, nodeId: string, messageId: string) => appendFileSync(file, `${executionId} ${nodeId} ${messageId}\n`);
  const step = definePlugin({
    type: 'SOAK_STEP',
    kind: 'processor',
    title: 'Soak step',
    description: 'Records the call, waits payload.delayMs, passes the payload on.',
    configSchema: Config,
    defaultConfig: {},
    outputs: ['out'],
    async process(m, _c, ctx) {
      record(ctx.executionId, ctx.nodeId, m.id);
      const delay = (m.payload as { delayMs?: unknown }).delayMs;
      if (typeof delay === 'number' && delay > 0) await ctx.sleep(delay);
      return [{ payload: m.payload }];
    },
  });
  const sink = definePlugin({
    type: 'SOAK_SINK',
    kind: 'terminal',
    title: 'Soak sink',
    description: 'Records the call.',
    configSchema: Config,
    defaultConfig: {},
    outputs: [],
    process(m, _c, ctx) {
      record(ctx.executionId, ctx.nodeId, m.id);
    },
  });
  return [step, sink] as unknown as Array<Plugin<never>>;
}
