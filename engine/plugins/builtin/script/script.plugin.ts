import { z } from 'zod';
import { DEFAULT_PORT } from '../../../../shared/workflow/engine-policy.schema';
import { definePlugin } from '../../contract';

const MIB = 1024 * 1024;
export const SCRIPT_LIMITS = { defaultTimeoutMs: 1_000, maxTimeoutMs: 30_000, defaultMemoryMb: 32, maxMemoryMb: 256 } as const;

const ScriptConfig = z.strictObject({
  /**
   * A function body run in a sandbox (QuickJS, WASM): it gets `payload`, `metadata` and `log(...)` and
   * returns the new payload; returning nothing drops the message. Synchronous; no Node, network or files.
   */
  code: z
    .string()
    .min(1)
    .max(1024 * 1024),
  timeoutMs: z.number().int().min(1).max(SCRIPT_LIMITS.maxTimeoutMs).default(SCRIPT_LIMITS.defaultTimeoutMs),
  memoryMb: z.number().int().min(1).max(SCRIPT_LIMITS.maxMemoryMb).default(SCRIPT_LIMITS.defaultMemoryMb),
});

/**
 * SCRIPT (SEC-03): JavaScript in a real sandbox — QuickJS compiled to WASM, in a worker thread — with a time
 * limit (interrupt, then the worker is terminated), a memory limit and a stack limit. Only JSON crosses the
 * boundary, so prototypes, globals and the host are out of reach.
 */
export const scriptPlugin = definePlugin({
  type: 'SCRIPT',
  kind: 'processor',
  title: 'Script',
  description: 'Runs sandboxed JavaScript on each message: return the new payload.',
  configSchema: ScriptConfig,
  defaultConfig: { code: 'return { ...payload, handled: true };' },
  outputs: [DEFAULT_PORT],
  defaultTimeoutMs: (config) => config.timeoutMs + 30_000,
  async process(message, config, ctx) {
    const outcome = await ctx.services.scripts.run(
      {
        code: config.code,
        payload: message.payload,
        metadata: message.metadata,
        timeoutMs: config.timeoutMs,
        memoryBytes: config.memoryMb * MIB,
        maxOutputBytes: ctx.services.limits.maxMessageBytes,
      },
      ctx.signal,
    );
    for (const line of outcome.logs) ctx.log.info(line);
    if (outcome.undefined) return [];
    return [{ payload: outcome.result, metadata: { ...message.metadata } }];
  },
});
