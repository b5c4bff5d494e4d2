import { z } from 'zod';
import { Identifier } from '../workflow/identifier';
import { ExecutionIdOutput, NodeId } from '../workflow/ids';
import { SchedulerLimitsPatch } from './scheduler.schema';

/** How a run (or a node) is stopped (CTL-03). */
export const StopMode = z.enum(['DRAIN', 'CANCEL', 'KILL']);
export type StopMode = z.infer<typeof StopMode>;

/** Largest step count accepted in one Step command. */
export const MAX_STEP = 1_000_000;

const Node = { nodeId: NodeId };

/** `payload`, `payload.a.b` or `metadata.key` (CTL-02). */
export const BreakpointPath = z
  .string()
  .min(1)
  .max(512)
  .refine((p) => p === 'payload' || /^payload\.[^.]+(\.[^.]+)*$/.test(p) || /^metadata\.[^.]+$/.test(p), 'must be payload, payload.some.path or metadata.key');

/** Largest number of nodes one list of `RunDebug` may name. */
const MAX_DEBUG_NODES = 1000;

/**
 * Valves set before a run's first message moves (`runs.start` `debug`, CTL-02): the breakpoints, pauses and
 * skips set on the canvas before Run.
 */
export const RunDebug = z.strictObject({
  paused: z.array(NodeId).max(MAX_DEBUG_NODES).optional(),
  breakpoints: z
    .array(z.strictObject({ nodeId: NodeId, path: BreakpointPath, equals: z.string().max(10_000) }))
    .max(MAX_DEBUG_NODES)
    .optional(),
  skipped: z.array(NodeId).max(MAX_DEBUG_NODES).optional(),
});
export type RunDebug = z.infer<typeof RunDebug>;

/** A signal's decision as the sender gives it (CTL-05). */
export const SignalDecision = z.enum(['APPROVE', 'REJECT']);
export type SignalDecision = z.infer<typeof SignalDecision>;

/**
 * The commands of the control plane (CTL-01): a closed set, one handler module per type
 * (`engine/control/commands/<name>.command.ts`). A command addresses one run (the `executionId` next to
 * it); SetLimits addresses the pseudo run `scheduler`.
 */
export const ControlCommand = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('PauseWorkflow') }),
  z.strictObject({ type: z.literal('ResumeWorkflow') }),
  z.strictObject({ type: z.literal('PauseNode'), ...Node }),
  z.strictObject({ type: z.literal('ResumeNode'), ...Node }),
  /** Step mode: the run (or one node) holds before every message until Step lets some through; off resumes. */
  z.strictObject({ type: z.literal('StepMode'), nodeId: NodeId.optional(), enabled: z.boolean().default(true) }),
  /** Lets exactly `count` messages through the node (every node when none is named), then holds again. */
  z.strictObject({ type: z.literal('Step'), nodeId: NodeId.optional(), count: z.number().int().min(1).max(MAX_STEP).default(1) }),
  /** Stops one node: it ends STOPPED, its children see the end of their input (KILL abandons its plugin call). */
  z.strictObject({ type: z.literal('StopNode'), ...Node, mode: z.enum(['CANCEL', 'KILL']).default('CANCEL') }),
  z.strictObject({ type: z.literal('StopWorkflow'), mode: StopMode.default('CANCEL') }),
  z.strictObject({ type: z.literal('Skip'), ...Node }),
  z.strictObject({ type: z.literal('Unskip'), ...Node }),
  z.strictObject({ type: z.literal('SetBreakpoint'), ...Node, path: BreakpointPath, equals: z.string().max(10_000) }),
  z.strictObject({ type: z.literal('ClearBreakpoint'), ...Node }),
  z.strictObject({ type: z.literal('Signal'), ...Node, decision: SignalDecision.default('APPROVE'), data: z.unknown().optional() }),
  /** A new run of the same version with the same start payload. */
  z.strictObject({ type: z.literal('Restart') }),
  /** A new run re-running the node and its descendants, replaying the recorded outputs feeding them. */
  z.strictObject({ type: z.literal('RestartFromNode'), ...Node }),
  /** Restart from a node that ended FAILURE or TIMED_OUT. */
  z.strictObject({ type: z.literal('RetryNode'), ...Node }),
  z.strictObject({ type: z.literal('SetLimits'), limits: SchedulerLimitsPatch }),
  z.strictObject({ type: z.literal('SetPriority'), priority: z.number().finite() }),
  /** Replaces the payload of the message held at the node's valve before it is released (beyond the reference). */
  z.strictObject({ type: z.literal('ReplaceHeldMessage'), ...Node, payload: z.unknown() }),
  /** Saves a `yukta.*` setting that applies at the next start (CFG-01); addressed to the pseudo run `settings`. */
  z.strictObject({ type: z.literal('SetSetting'), key: z.string().min(1).max(256), value: z.unknown() }),
]);
export type ControlCommand = z.infer<typeof ControlCommand>;
export type ControlCommandInput = z.input<typeof ControlCommand>;
export type ControlCommandType = ControlCommand['type'];
export const CONTROL_COMMAND_TYPES = ControlCommand.options.map((o) => o.shape.type.value);

/** The pseudo run scheduler commands are sequenced and audited under (ADM-03). */
export const SCHEDULER_RUN = 'scheduler';
/** The pseudo run setting changes are sequenced and audited under (CFG-01). */
export const SETTINGS_RUN = 'settings';
/** Pseudo runs: commands to them need no run, and the log keeps their rows whatever its retention. */
export const PSEUDO_RUNS: ReadonlySet<string> = new Set([SCHEDULER_RUN, SETTINGS_RUN]);

/** What a signal did: delivered to a waiting message, or kept until the node waits (CTL-05). */
export const SignalOutcome = z.enum(['ACCEPTED', 'QUEUED']);
export type SignalOutcome = z.infer<typeof SignalOutcome>;

/** The answer to an applied command (a refusal is an error: FORBIDDEN, CONFLICT, NOT_FOUND, BAD_INPUT). */
export const ControlResult = z.object({
  executionId: z.string(),
  command: z.string(),
  /** When it was applied (engine clock). */
  at: z.number(),
  /** Signal: ACCEPTED or QUEUED. */
  signal: SignalOutcome.optional(),
  /** Restart, RestartFromNode, RetryNode: the new run, and whether it waits for a slot. */
  newExecutionId: ExecutionIdOutput.optional(),
  queued: z.boolean().optional(),
  /** SetLimits: the limits now in force; SetPriority: the new queue position. */
  value: z.unknown().optional(),
});
export type ControlResult = z.infer<typeof ControlResult>;

export const AuditType = z.enum(['CONTROL_APPLIED', 'CONTROL_REJECTED']);
export type AuditType = z.infer<typeof AuditType>;

/** One audit row (CTL-01): status is the command name, or `command: reason` for a refusal. */
export const ControlAuditEntry = z.object({
  runId: z.string(),
  type: AuditType,
  status: z.string(),
  actor: z.string(),
  at: z.number(),
});
export type ControlAuditEntry = z.infer<typeof ControlAuditEntry>;

export const ControlAuditQuery = z.strictObject({
  /** A run, or a pseudo-run such as `scheduler` (its audit rows are not a run's): an identifier, not an ExecutionId. */
  executionId: Identifier.optional(),
  actor: z.string().optional(),
  type: AuditType.optional(),
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});
export type ControlAuditQuery = z.infer<typeof ControlAuditQuery>;

export const ControlAuditPage = z.object({ entries: z.array(ControlAuditEntry), total: z.number().int() });
export type ControlAuditPage = z.infer<typeof ControlAuditPage>;

const HeldMessage = z.object({ id: z.string(), payload: z.unknown(), metadata: z.record(z.string(), z.string()) });

/** A node's valve as the debugger sees it (CTL-02). */
export const NodeControlState = z.object({
  nodeId: z.string(),
  kind: z.enum(['trigger', 'processor', 'terminal']),
  paused: z.boolean(),
  skipped: z.boolean(),
  stepRemaining: z.number().int().nullable(),
  breakpoint: z.object({ path: z.string(), equals: z.string() }).nullable(),
  held: HeldMessage.nullable(),
});
export type NodeControlState = z.infer<typeof NodeControlState>;

export const ControlState = z.object({
  executionId: z.string(),
  /** False once the run ended (or while it is QUEUED): nothing can be held then. */
  live: z.boolean(),
  paused: z.boolean(),
  stepMode: z.boolean(),
  nodes: z.array(NodeControlState),
});
export type ControlState = z.infer<typeof ControlState>;

/** An open approval: a message waiting at a WAIT_FOR_SIGNAL node (CTL-05). */
export const Approval = z.object({
  executionId: z.string(),
  session: z.string(),
  workflowId: z.string(),
  nodeId: z.string(),
  signal: z.string(),
  messageId: z.string(),
  payload: z.unknown(),
  since: z.number(),
});
export type Approval = z.infer<typeof Approval>;

/** A plugin-level control message (CTL-08): `heartbeat`, `statistics`, or a kind a plugin handles. */
export const PluginControlInput = z.strictObject({
  kind: z.string().min(1).max(100),
  body: z.unknown().optional(),
});

export const PluginControlReply = z.object({
  kind: z.string(),
  /** Live runs of the workflow that have the node. */
  runs: z.number().int(),
  /** Handlers (or runs, for the built-in kinds) the message reached. */
  delivered: z.number().int(),
  answers: z.array(z.unknown()),
});
export type PluginControlReply = z.infer<typeof PluginControlReply>;
