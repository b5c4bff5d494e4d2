import { z } from 'zod';
import { ErrorInfo, NodeCounts } from '../events/events';
import { Status } from '../status/status';

export const NodeRunState = z.object({
  nodeId: z.string(),
  status: Status,
  counts: NodeCounts,
  startedAt: z.number().optional(),
  endedAt: z.number().optional(),
  error: ErrorInfo.optional(),
});
export type NodeRunState = z.infer<typeof NodeRunState>;

export const RunSummary = z.object({
  executionId: z.string(),
  session: z.string(),
  workflowId: z.string(),
  definitionVersion: z.string(),
  status: Status,
  createdAt: z.number(),
  startedAt: z.number().optional(),
  endedAt: z.number().optional(),
  error: ErrorInfo.optional(),
});
export type RunSummary = z.infer<typeof RunSummary>;

export const RunResult = z.object({ nodeId: z.string(), messageId: z.string(), payload: z.unknown() });
export type RunResult = z.infer<typeof RunResult>;

export const RunDetail = RunSummary.extend({
  nodes: z.array(NodeRunState),
  results: z.array(RunResult),
  /** True when the results buffer dropped older results (OBS-03). */
  resultsTruncated: z.boolean(),
});
export type RunDetail = z.infer<typeof RunDetail>;
