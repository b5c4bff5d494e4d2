import { z } from 'zod';
import { Status } from '../status/status';

const Base = {
  /** Position in the host's event feed, increasing by one per event. */
  seq: z.number().int(),
  executionId: z.string(),
  /** Epoch milliseconds from the engine's clock. */
  at: z.number(),
};

export const ErrorInfo = z.object({
  name: z.string(),
  message: z.string(),
  code: z.string().optional(),
  /** A node that failed on a message (ENG-04): its last attempt, of `maxAttempts` allowed. */
  attempt: z.number().int().optional(),
  maxAttempts: z.number().int().optional(),
  /** That message's payload (as JSON text cut to 2,048 characters when larger). */
  input: z.unknown().optional(),
  /** On a run's error: the node where the failure began (the studio's "Failed at <node>"). */
  nodeId: z.string().optional(),
});
export type ErrorInfo = z.infer<typeof ErrorInfo>;

export const NodeCounts = z.object({
  received: z.number().int(),
  emitted: z.number().int(),
  /** Messages whose attempts all failed (dropped under CONTINUE, routed under ROUTE). */
  failed: z.number().int().optional(),
  /** Attempts retried (ENG-04). */
  retried: z.number().int().optional(),
  /** Messages dropped by the node's edge buffer (ENG-01, `yukta.edge.dropped`). */
  dropped: z.number().int().optional(),
});
export type NodeCounts = z.infer<typeof NodeCounts>;

export const ExecutionStatusEvent = z.object({
  ...Base,
  type: z.literal('EXECUTION_STATUS'),
  session: z.string(),
  workflowId: z.string(),
  definitionVersion: z.string(),
  status: Status,
  error: ErrorInfo.optional(),
  /** On the run's first event (PENDING): every node of the run, each PENDING until its own event says otherwise. */
  nodeIds: z.array(z.string()).optional(),
  /** On a replayed end event (OBS-03 catch-up): the replay buffer dropped results or log lines; the live stream never does. */
  truncated: z.boolean().optional(),
});

export const NodeStatusEvent = z.object({
  ...Base,
  type: z.literal('NODE_STATUS'),
  nodeId: z.string(),
  status: Status,
  counts: NodeCounts,
  error: ErrorInfo.optional(),
  /** The id of the message now held at the node's valve (CTL-02: breakpoint, pause, step), or null once it
   * moved on; absent when the event is not about the valve. */
  held: z.string().nullable().optional(),
  /** The node's input buffer as the event was made (ENG-01): messages waiting and its capacity. */
  buffer: z.object({ used: z.number().int(), size: z.number().int() }).optional(),
  /** The attempt running now for a message being retried (ENG-04: 2, 3, …); absent while first attempts run. */
  attempt: z.number().int().optional(),
});

/** A message that reached a terminal node (OBS-03). */
export const NodeResultEvent = z.object({
  ...Base,
  type: z.literal('NODE_RESULT'),
  nodeId: z.string(),
  messageId: z.string(),
  payload: z.unknown(),
  /** The message's metadata when it has any (e.g. `signal.decision`, `signal.actor`, `signal.data` after an approval). */
  metadata: z.record(z.string(), z.string()).optional(),
});

export const LogEvent = z.object({
  ...Base,
  type: z.literal('LOG'),
  nodeId: z.string().optional(),
  level: z.enum(['debug', 'info', 'warn', 'error']),
  text: z.string(),
});

/** A command was applied to the run or refused (CTL-01): the audit row, on the feed as it is written. */
export const ControlEvent = z.object({
  ...Base,
  type: z.literal('CONTROL'),
  outcome: z.enum(['CONTROL_APPLIED', 'CONTROL_REJECTED']),
  /** The command name, or `command: reason` for a refusal. */
  status: z.string(),
  actor: z.string(),
});

/** A message started or stopped waiting for a signal at a WAIT_FOR_SIGNAL node (CTL-05): the inbox's feed. */
export const ApprovalEvent = z.object({
  ...Base,
  type: z.literal('APPROVAL'),
  nodeId: z.string(),
  signal: z.string(),
  messageId: z.string(),
  state: z.enum(['OPEN', 'CLOSED']),
  /** How a CLOSED wait ended: APPROVED, REJECTED, or ABANDONED (timeout, stop, cancel). */
  decision: z.enum(['APPROVED', 'REJECTED', 'ABANDONED']).optional(),
});

/** Every state change is one of these; the UI, the SSE feed and the tracker consume the same events. */
export const StudioEvent = z.discriminatedUnion('type', [ExecutionStatusEvent, NodeStatusEvent, NodeResultEvent, LogEvent, ControlEvent, ApprovalEvent]);
export type StudioEvent = z.infer<typeof StudioEvent>;
export type StudioEventType = StudioEvent['type'];
export const STUDIO_EVENT_TYPES = StudioEvent.options.map((o) => o.shape.type.value);
export const StudioEventType = z.enum(['EXECUTION_STATUS', 'NODE_STATUS', 'NODE_RESULT', 'LOG', 'CONTROL', 'APPROVAL']);

/** Filter of an event subscription (`GET /api/events/stream?executionId=&type=`). */
export const EventFilter = z.object({
  executionId: z.string().optional(),
  type: z.array(StudioEventType).optional(),
});
export type EventFilter = z.infer<typeof EventFilter>;

export function matchesFilter(event: StudioEvent, filter: EventFilter | undefined): boolean {
  if (!filter) return true;
  if (filter.executionId && event.executionId !== filter.executionId) return false;
  if (filter.type && filter.type.length && !filter.type.includes(event.type)) return false;
  return true;
}

/** Strips the feed sequence number, for events built by the engine before the bus numbers them. */
export type UnnumberedEvent = StudioEvent extends infer E ? (E extends StudioEvent ? Omit<E, 'seq'> : never) : never;
