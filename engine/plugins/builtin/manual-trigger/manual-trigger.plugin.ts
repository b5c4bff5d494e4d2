import { z } from 'zod';
import { DEFAULT_PORT } from '../../../../shared/workflow/engine-policy.schema';
import { definePlugin } from '../../contract';

const ManualTriggerConfig = z.strictObject({
  /** The payload a run starts with; fields of the start call's payload win. */
  payload: z.record(z.string(), z.unknown()).default({}),
});

/** Starts a run from the studio's Run button with a stored payload (EXT-01 MANUAL_TRIGGER). */
export const manualTriggerPlugin = definePlugin({
  type: 'MANUAL_TRIGGER',
  kind: 'trigger',
  title: 'Manual trigger',
  description: 'Starts the workflow by hand with a payload kept in its config.',
  configSchema: ManualTriggerConfig,
  defaultConfig: { payload: {} },
  outputs: [DEFAULT_PORT],
  process(message, config) {
    const given = message.payload && typeof message.payload === 'object' && !Array.isArray(message.payload) ? (message.payload as Record<string, unknown>) : {};
    const started = Object.fromEntries(Object.entries(given).filter(([k]) => !k.startsWith('yukta.')));
    return [{ payload: { ...config.payload, ...started }, metadata: { ...message.metadata } }];
  },
});
