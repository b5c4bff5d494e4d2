import { z } from 'zod';
import { DEFAULT_PORT } from '../../../../shared/workflow/engine-policy.schema';
import { Identifier } from '../../../../shared/workflow/identifier';
import { definePlugin } from '../../contract';

const SubWorkflowConfig = z.strictObject({
  /** The workflow to run for each message. */
  workflowId: Identifier,
  /** Its session; the parent's when absent. */
  session: Identifier.optional(),
});

/** Runs another workflow per message and emits `{executionId, results[]}` (ENG-07 SUB_WORKFLOW). */
export const subWorkflowPlugin = definePlugin({
  type: 'SUB_WORKFLOW',
  kind: 'processor',
  needsEngine: true,
  title: 'Sub-workflow',
  description: 'Runs another workflow for each message and passes on what its terminals received.',
  configSchema: SubWorkflowConfig,
  defaultConfig: { workflowId: 'child' },
  outputs: [DEFAULT_PORT],
  // A child may run long and quietly; its own run deadline bounds it (ENG-05).
  defaultTimeoutMs: () => 3_600_000,
  async process(message, config, ctx) {
    const p = message.payload;
    const payload = p && typeof p === 'object' && !Array.isArray(p) ? { ...(p as Record<string, unknown>) } : { value: p };
    const request =
      config.session === undefined ? { workflowId: config.workflowId, payload } : { workflowId: config.workflowId, session: config.session, payload };
    const result = await ctx.runWorkflow(request, ctx.signal);
    return [{ payload: result, metadata: message.metadata }];
  },
});
