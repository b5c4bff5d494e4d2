import { z } from 'zod';
import { ExecutionIdOutput } from '../workflow/ids';
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

export const RunResult = z.object({ nodeId: z.string(), messageId: z.string(), payload: z.unknown(), metadata: z.record(z.string(), z.string()).optional() });
export type RunResult = z.infer<typeof RunResult>;

export const RunDetail = RunSummary.extend({
  nodes: z.array(NodeRunState),
  results: z.array(RunResult),
  /** True when the results buffer dropped older results (OBS-03). */
  resultsTruncated: z.boolean(),
});
export type RunDetail = z.infer<typeof RunDetail>;

/** Longest `runs.wait` (seconds): a bounded wait, so a caller never holds a request open indefinitely. */
export const MAX_RUN_WAIT_SECONDS = 300;
/** `runs.wait` without a timeout waits this long (below the 60 s request timeout of common MCP clients). */
export const DEFAULT_RUN_WAIT_SECONDS = 30;

/** The answer to `runs.wait`: the run as read when it ended or the wait ran out; `timedOut` when it had not ended. */
export const RunWaitResult = RunDetail.extend({ timedOut: z.boolean() });
export type RunWaitResult = z.infer<typeof RunWaitResult>;

/** The answer to `runs.resume` (DUR-03): the new run continuing the ABORTED one, and whether it waits for a slot. */
export const ResumeResult = z.object({ executionId: ExecutionIdOutput, resumedFrom: z.string(), queued: z.boolean() });
export type ResumeResult = z.infer<typeof ResumeResult>;

/** Largest page of recorded messages one `runs.recorded` call returns. */
export const MAX_RECORDED_PAGE = 500;

/** One recorded message of a node (CTL-04 recording): its output port, payload and metadata. */
export const RecordedMessageView = z.object({ index: z.number().int(), port: z.string(), payload: z.unknown(), metadata: z.record(z.string(), z.string()) });
export type RecordedMessageView = z.infer<typeof RecordedMessageView>;

/** A page of one node's recorded output, with its end marker and whether recording stopped at a cap. */
export const RecordedStream = z.object({
  total: z.number().int(),
  messages: z.array(RecordedMessageView),
  /** The node's final status as recorded, or null while it runs (or when nothing was recorded). */
  end: Status.nullable(),
  /** Why recording stopped early (a cap was passed), or null when the recording is complete. */
  overCap: z.string().nullable(),
});
export type RecordedStream = z.infer<typeof RecordedStream>;

/** What a node of a run received and sent, as recorded (STU-04): its outputs, and its parents' outputs on the edges into it. */
export const RecordedNode = z.object({
  executionId: z.string(),
  nodeId: z.string(),
  outputs: RecordedStream,
  inputs: z.array(RecordedStream.extend({ from: z.string(), port: z.string() })),
});
export type RecordedNode = z.infer<typeof RecordedNode>;

/** Every node's recorded output of a run in short: count and a digest, to compare two runs node by node. */
export const RecordedSummary = z.object({
  executionId: z.string(),
  /** False when the run recorded nothing (recording off): digests are then empty. */
  recorded: z.boolean(),
  nodes: z.array(z.object({ nodeId: z.string(), outputs: z.number().int(), digest: z.string(), end: Status.nullable(), overCap: z.string().nullable() })),
});
export type RecordedSummary = z.infer<typeof RecordedSummary>;
