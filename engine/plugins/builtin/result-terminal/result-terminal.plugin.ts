import { z } from 'zod';
import { definePlugin } from '../../contract';

const ResultTerminalConfig = z.strictObject({
  /** A label for the results of this terminal. */
  name: z.string().max(200).default(''),
});

/** Records each message as a result of the run without logging it (EXT-01 RESULT_TERMINAL). */
export const resultTerminalPlugin = definePlugin({
  type: 'RESULT_TERMINAL',
  kind: 'terminal',
  title: 'Result',
  description: 'Keeps every message it receives as a result of the run.',
  configSchema: ResultTerminalConfig,
  defaultConfig: {},
  outputs: [],
  process() {
    // The engine publishes each input of a terminal as a NODE_RESULT (OBS-03); nothing else to do.
  },
});
