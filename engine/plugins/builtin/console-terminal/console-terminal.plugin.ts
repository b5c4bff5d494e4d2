import { z } from 'zod';
import { definePlugin } from '../../contract';

const ConsoleTerminalConfig = z.strictObject({
  /** Text put before each line. */
  prefix: z.string().max(200).default(''),
  /** `json` prints the payload as JSON; `text` prints strings as they are. */
  format: z.enum(['json', 'text']).default('json'),
});

/** Writes each message to the run's log; the engine publishes it as a result (EXT-01 CONSOLE_TERMINAL). */
export const consoleTerminalPlugin = definePlugin({
  type: 'CONSOLE_TERMINAL',
  kind: 'terminal',
  title: 'Console',
  description: 'Logs every message it receives and records it as a result.',
  configSchema: ConsoleTerminalConfig,
  defaultConfig: { format: 'json' },
  outputs: [],
  process(message, config, ctx) {
    const p = message.payload;
    const text = config.format === 'text' && typeof p === 'string' ? p : JSON.stringify(p);
    ctx.log.info(`${config.prefix}${text}`);
  },
});
