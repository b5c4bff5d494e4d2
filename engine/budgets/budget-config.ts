import { z } from 'zod';

const Agent = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9._:-]+$/, 'an agent name ([A-Za-z0-9._:-])');

/** LLM_CALL's `budget` (EXT-03): limits on the use of the run (or of its agent), counted across nodes. */
export const LlmBudgetConfig = z.strictObject({
  /** Input + output tokens of the run (or agent); at the limit the next call is refused. */
  maxTokens: z.number().int().positive().optional(),
  /** Cost of the run (or agent), priced by the node's `prices`; needs a price for the model. */
  maxCost: z.number().positive().optional(),
  /** LLM calls of the run (or agent); each attempt counts. */
  maxCalls: z.number().int().positive().optional(),
  /** At the limit end the whole run (true) or fail just this call (false: the failure policy applies). */
  hardStop: z.boolean().default(false),
  /** Counts this node's use apart, with every node of the run naming the same agent. */
  agent: Agent.optional(),
});
export type LlmBudgetConfig = z.infer<typeof LlmBudgetConfig>;

/** MCP_TOOL_CALL's `budget` (EXT-03): tool calls of the run (or of its agent), counted across nodes. */
export const ToolBudgetConfig = z.strictObject({
  maxCalls: z.number().int().positive().optional(),
  hardStop: z.boolean().default(false),
  agent: Agent.optional(),
});
export type ToolBudgetConfig = z.infer<typeof ToolBudgetConfig>;
