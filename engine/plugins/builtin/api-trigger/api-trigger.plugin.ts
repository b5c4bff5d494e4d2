import { z } from 'zod';
import { DEFAULT_PORT } from '../../../../shared/workflow/engine-policy.schema';
import { BadInputError } from '../../../runtime/errors';
import { definePlugin } from '../../contract';

const ApiTriggerConfig = z.strictObject({
  /** Payload fields a start must carry; a start without them fails with BadInputError. */
  requiredFields: z.array(z.string().min(1)).default([]),
});

/** Emits the run's start payload once (EXT-01 API_TRIGGER). */
export const apiTriggerPlugin = definePlugin({
  type: 'API_TRIGGER',
  kind: 'trigger',
  title: 'API trigger',
  description: 'Starts the workflow with the payload given to the start call.',
  configSchema: ApiTriggerConfig,
  defaultConfig: {},
  outputs: [DEFAULT_PORT],
  process(message, config) {
    const payload = message.payload;
    if (config.requiredFields.length) {
      const record = payload && typeof payload === 'object' ? (payload as Record<string, unknown>) : {};
      const missing = config.requiredFields.filter((f) => !Object.prototype.hasOwnProperty.call(record, f));
      if (missing.length) throw new BadInputError(`start payload is missing required field(s): ${missing.join(', ')}`);
    }
    return [{ payload, metadata: { ...message.metadata } }];
  },
});
