import { DEFAULT_PORT } from '../../../../shared/workflow/engine-policy.schema';
import { CRON_PAYLOAD_KEY, CRON_TRIGGER_TYPE, CronTriggerConfig, isCronFireInfo } from '../../../triggers/cron-trigger-config';
import { definePlugin } from '../../contract';

function startFields(payload: unknown): Record<string, unknown> {
  if (!payload || typeof payload !== 'object' || Array.isArray(payload)) return {};
  return Object.fromEntries(Object.entries(payload as Record<string, unknown>).filter(([k]) => !k.startsWith('yukta.')));
}

/**
 * CRON_TRIGGER (EXT-01): the engine's trigger scheduler (engine/triggers) starts the saved workflow at
 * each fire of `expression` in `timezone`; this node then emits its `payload` tagged with the fire
 * (`cron.scheduledAt`, `cron.firedAt`, `cron.missed`, `cron.catchUp`). A run started by hand (Run button,
 * API) emits the payload too, with the start fields over it, so a schedule can be tried at once; a run
 * fired by another CRON_TRIGGER of the same workflow emits nothing here.
 */
export const cronTriggerPlugin = definePlugin({
  type: CRON_TRIGGER_TYPE,
  kind: 'trigger',
  title: 'Cron trigger',
  description: 'Starts the workflow on a cron schedule (time zone, missed-fire policy).',
  configSchema: CronTriggerConfig,
  defaultConfig: { expression: '0 9 * * 1-5', timezone: 'UTC', missedFires: 'SKIP', payload: {} },
  outputs: [DEFAULT_PORT],
  process(message, config, ctx) {
    const fire = (message.payload as Record<string, unknown> | null | undefined)?.[CRON_PAYLOAD_KEY];
    if (!isCronFireInfo(fire))
      return [{ payload: { ...config.payload, ...startFields(message.payload) }, metadata: { ...message.metadata, 'cron.manual': 'true' } }];
    if (fire.nodeId !== ctx.nodeId) return [];
    const metadata = {
      ...message.metadata,
      'cron.scheduledAt': fire.scheduledAt,
      'cron.firedAt': fire.firedAt,
      'cron.missed': String(fire.missed),
      'cron.catchUp': String(fire.catchUp),
    };
    return [{ payload: { ...config.payload }, metadata }];
  },
});
