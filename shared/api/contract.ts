import { z } from 'zod';
import { Status } from '../status/status';
import { DEFAULT_SESSION, Identifier } from '../workflow/identifier';
import { WorkflowDefinition } from '../workflow/definition.schema';
import { NodeTypeInfo } from '../workflow/node-type';
import { ValidationIssue } from '../workflow/validation-issue';
import { WorkflowDiff } from '../workflow/workflow-diff';
import {
  Approval,
  ControlAuditPage,
  ControlAuditQuery,
  ControlCommand,
  ControlResult,
  ControlState,
  PluginControlInput,
  PluginControlReply,
  RunDebug,
  SignalDecision,
} from './control.schema';
import { op } from './operation-spec';
import { SETTINGS_AND_SECURITY_OPERATIONS } from './contract-security';
import {
  DEFAULT_RUN_WAIT_SECONDS,
  MAX_RECORDED_PAGE,
  MAX_RUN_WAIT_SECONDS,
  RecordedNode,
  RecordedSummary,
  ResumeResult,
  RunDetail,
  RunSummary,
  RunWaitResult,
} from './runs.schema';
import { SchedulerLimits, SchedulerLimitsPatch, SchedulerView, SetPriorityResult } from './scheduler.schema';
import { MetricsSnapshot } from './metrics.schema';
import { HaStatus } from './ha.schema';
import { CronTriggerInfo, TriggersQuery } from './triggers.schema';
import { WorkflowBreakpoints } from './breakpoints.schema';
import { ApplySessionResult, ExecutionTimeoutSeconds, SessionConfig, SessionSummary } from './sessions.schema';
import { SupervisorInfo, SupervisorRule, SupervisorRules } from './supervisors.schema';
import { SaveResult, StoredWorkflow, WorkflowSummary, WorkflowVersion } from './workflows.schema';
import { ExecutionId, ExecutionIdOutput, NodeId, VersionId } from '../workflow/ids';
import { RemoteAttemptInfo, WorkersView } from './workers.schema';

export type { OperationSpec } from './operation-spec';

const Session = Identifier.default(DEFAULT_SESSION);
/** Largest idempotency key accepted (ADM-02). */
export const MAX_IDEMPOTENCY_KEY_LENGTH = 256;

/**
 * The StudioApi contract: every operation, once. IPC handlers, REST routes and the renderer's client are
 * all generated from this table, so a new operation appears on every transport at once.
 */
export const STUDIO_API = {
  'nodeTypes.list': op({
    summary: 'List the node types of the plugin registry, with their config schemas.',
    input: z.strictObject({}),
    output: z.array(NodeTypeInfo),
    role: 'VIEWER',
    http: { method: 'GET', path: '/api/node-types' },
  }),
  'workflows.list': op({
    summary: 'List saved workflows, optionally of one session.',
    input: z.strictObject({ session: Identifier.optional() }),
    output: z.array(WorkflowSummary),
    role: 'VIEWER',
    http: { method: 'GET', path: '/api/workflows' },
  }),
  'workflows.get': op({
    summary: 'Read the current definition of a workflow.',
    input: z.strictObject({ session: Session, workflowId: Identifier }),
    output: StoredWorkflow,
    role: 'VIEWER',
    http: { method: 'GET', path: '/api/workflows/:session/:workflowId' },
  }),
  'workflows.save': op({
    summary: 'Validate and save a workflow; an invalid graph is refused and nothing is stored.',
    input: z.strictObject({ session: Session, definition: WorkflowDefinition, note: z.string().max(1000).optional() }),
    output: SaveResult,
    role: 'ADMIN',
    http: { method: 'POST', path: '/api/workflows' },
  }),
  'workflows.validate': op({
    summary: 'Validate a definition without saving it (DEF-02 issues with codes, node ids and paths).',
    input: z.strictObject({ definition: z.unknown() }),
    output: z.object({ valid: z.boolean(), issues: z.array(ValidationIssue) }),
    role: 'VIEWER',
    http: { method: 'POST', path: '/api/workflows/validate' },
  }),
  'workflows.versions': op({
    summary: 'List the saved versions of a workflow, newest first (hash, time, note; the current one marked).',
    input: z.strictObject({ session: Session, workflowId: Identifier }),
    output: z.array(WorkflowVersion),
    role: 'VIEWER',
    http: { method: 'GET', path: '/api/workflows/:session/:workflowId/versions' },
  }),
  'workflows.getVersion': op({
    summary: 'Read one saved version of a workflow.',
    input: z.strictObject({ session: Session, workflowId: Identifier, version: VersionId }),
    output: StoredWorkflow,
    role: 'VIEWER',
    http: { method: 'GET', path: '/api/workflows/:session/:workflowId/versions/:version' },
  }),
  'workflows.restore': op({
    summary: "Save an older version's graph as the current one (no new version when it already is current).",
    input: z.strictObject({ session: Session, workflowId: Identifier, version: VersionId, note: z.string().max(1000).optional() }),
    output: SaveResult,
    role: 'ADMIN',
    http: { method: 'POST', path: '/api/workflows/:session/:workflowId/versions/:version/restore' },
  }),
  'workflows.diff': op({
    summary: 'What changed from one saved version to another (description, nodes, config keys, edges).',
    input: z.strictObject({ session: Session, workflowId: Identifier, from: VersionId, to: VersionId }),
    output: WorkflowDiff,
    role: 'VIEWER',
    http: { method: 'GET', path: '/api/workflows/:session/:workflowId/diff' },
  }),
  'workflows.delete': op({
    summary: 'Delete a workflow and its version history (audited); refused while a run of it is still going. Finished runs stay in the history.',
    input: z.strictObject({ session: Session, workflowId: Identifier }),
    output: z.object({ deleted: z.literal(true) }),
    role: 'ADMIN',
    http: { method: 'DELETE', path: '/api/workflows/:session/:workflowId' },
  }),
  'runs.start': op({
    summary: 'Start a run of a saved workflow with a payload.',
    input: z.strictObject({
      session: Session,
      workflowId: Identifier,
      payload: z.record(z.string(), z.unknown()).default({}),
      idempotencyKey: z.string().min(1).max(MAX_IDEMPOTENCY_KEY_LENGTH).optional(),
      /** Breakpoints, pauses and skips applied before the first message moves (CTL-02). */
      debug: RunDebug.optional(),
    }),
    output: z.object({ executionId: ExecutionIdOutput }),
    role: 'OPERATOR',
    http: { method: 'POST', path: '/api/workflow/start' },
  }),
  'runs.get': op({
    summary: "Read a run: its status, every node's status and counts, and its results.",
    input: z.strictObject({ executionId: ExecutionId }),
    output: RunDetail,
    role: 'VIEWER',
    http: { method: 'GET', path: '/api/executions/:executionId' },
  }),
  'runs.wait': op({
    summary: 'Wait until a run ends (any terminal status), at most timeoutSeconds (0 reads it now), then read it; timedOut says the run was still going.',
    input: z.strictObject({
      executionId: ExecutionId,
      timeoutSeconds: z.coerce.number().int().min(0).max(MAX_RUN_WAIT_SECONDS).default(DEFAULT_RUN_WAIT_SECONDS),
    }),
    output: RunWaitResult,
    role: 'VIEWER',
    http: { method: 'GET', path: '/api/executions/:executionId/wait' },
  }),
  'runs.list': op({
    summary: 'List runs, newest first.',
    input: z.strictObject({
      session: Identifier.optional(),
      workflowId: Identifier.optional(),
      status: Status.optional(),
      limit: z.coerce.number().int().min(1).max(1000).default(100),
    }),
    output: z.array(RunSummary),
    role: 'VIEWER',
    http: { method: 'GET', path: '/api/executions' },
  }),
  'runs.recorded': op({
    summary: "What a node of a run received and sent, as recorded (STU-04): its outputs and its parents' outputs on the edges into it, a page at a time.",
    input: z.strictObject({
      executionId: ExecutionId,
      nodeId: NodeId,
      offset: z.coerce.number().int().min(0).default(0),
      limit: z.coerce.number().int().min(1).max(MAX_RECORDED_PAGE).default(50),
    }),
    output: RecordedNode,
    role: 'VIEWER',
    http: { method: 'GET', path: '/api/executions/:executionId/nodes/:nodeId/recorded' },
  }),
  'runs.recordedSummary': op({
    summary: "Every node's recorded output of a run in short (count, digest, end marker), to compare two runs node by node (STU-04).",
    input: z.strictObject({ executionId: ExecutionId }),
    output: RecordedSummary,
    role: 'VIEWER',
    http: { method: 'GET', path: '/api/executions/:executionId/recorded' },
  }),
  'runs.resume': op({
    summary:
      'Resume a run the last crash or kill interrupted (ABORTED), once, as a new run of the same version that skips the nodes that finished and replays their output (DUR-03); CONFLICT when the run was not aborted, was resumed already or its workflow changed.',
    input: z.strictObject({ executionId: ExecutionId }),
    output: ResumeResult,
    role: 'OPERATOR',
    http: { method: 'POST', path: '/api/executions/:executionId/resume' },
  }),
  'runs.setPriority': op({
    summary: 'Move a QUEUED start to another priority (higher first); refused unless the run is waiting for a slot.',
    input: z.strictObject({ executionId: ExecutionId, priority: z.number() }),
    output: SetPriorityResult,
    role: 'OPERATOR',
    http: { method: 'POST', path: '/api/executions/:executionId/priority' },
  }),
  'scheduler.get': op({
    summary: 'Read the scheduler: limits, gauges and refusals, running runs, and the queue in admission order with why each start waits.',
    input: z.strictObject({ limit: z.coerce.number().int().min(1).max(10_000).default(200) }),
    output: SchedulerView,
    role: 'VIEWER',
    http: { method: 'GET', path: '/api/scheduler' },
  }),
  'metrics.get': op({
    summary: 'Read the engine meters (OBS-04): runs ended by status, gauges, refusals, node durations, drops; Prometheus scrapes the same at GET /metrics.',
    input: z.strictObject({}),
    output: MetricsSnapshot,
    role: 'VIEWER',
    http: { method: 'GET', path: '/api/metrics' },
  }),
  'ha.status': op({
    summary:
      "This host's part in an active/standby pair (SCL-02): leader, standby (read-only: starts, restarts and resumes are refused with not_leader) or deposed, who leads, the fencing number and step-downs.",
    input: z.strictObject({}),
    output: HaStatus,
    role: 'VIEWER',
    http: { method: 'GET', path: '/api/ha' },
  }),
  'workers.list': op({
    summary:
      'List the remote worker pools and the workers connected to this host (SCL-01): slots used and free, lease age, attempts by outcome, version, draining.',
    input: z.strictObject({}),
    output: WorkersView,
    role: 'VIEWER',
    http: { method: 'GET', path: '/api/workers' },
  }),
  'workers.attempts': op({
    summary: "Which worker ran each attempt of a run's placed nodes (SCL-01), with its outcome; the newest 500 per run, kept in memory.",
    input: z.strictObject({ executionId: ExecutionId, nodeId: NodeId.optional() }),
    output: z.array(RemoteAttemptInfo),
    role: 'VIEWER',
    http: { method: 'GET', path: '/api/executions/:executionId/worker-attempts' },
  }),
  'breakpoints.get': op({
    summary: "A workflow's breakpoints, kept beside the data outside its definition (STU-04: no version is made).",
    input: z.strictObject({ session: Session, workflowId: Identifier }),
    output: WorkflowBreakpoints,
    role: 'VIEWER',
    http: { method: 'GET', path: '/api/workflows/:session/:workflowId/breakpoints' },
  }),
  'breakpoints.set': op({
    summary: "Replace a workflow's breakpoints (each enabled or not, with an optional value condition).",
    input: z.strictObject({ session: Session, workflowId: Identifier, breakpoints: WorkflowBreakpoints.shape.breakpoints }),
    output: WorkflowBreakpoints,
    role: 'OPERATOR',
    http: { method: 'PUT', path: '/api/workflows/:session/:workflowId/breakpoints' },
  }),
  'triggers.list': op({
    summary: 'List the armed CRON_TRIGGER schedules (EXT-01) with their next fire time and the newest fire each handled.',
    input: TriggersQuery,
    output: z.array(CronTriggerInfo),
    role: 'VIEWER',
    http: { method: 'GET', path: '/api/triggers' },
  }),
  'scheduler.setLimits': op({
    summary: 'Change scheduler limits live (caps, on-limit, queue capacity and timeout); applied at once and recorded.',
    input: SchedulerLimitsPatch,
    output: SchedulerLimits,
    role: 'ADMIN',
    http: { method: 'POST', path: '/api/scheduler/limits' },
  }),
  'control.send': op({
    summary: "Send a command to a run (CTL-01): answered once applied, in the run's order; reviewed and audited.",
    input: z.strictObject({ executionId: ExecutionId, command: ControlCommand }),
    output: ControlResult,
    role: 'OPERATOR',
    http: { method: 'POST', path: '/api/executions/:executionId/control' },
  }),
  'control.state': op({
    summary: "A run's valves for the debugger (CTL-02): per node paused, skipped, steps left, breakpoint, held message.",
    input: z.strictObject({ executionId: ExecutionId }),
    output: ControlState,
    role: 'VIEWER',
    http: { method: 'GET', path: '/api/executions/:executionId/control' },
  }),
  'control.audit': op({
    summary: 'The control audit, newest first: CONTROL_APPLIED / CONTROL_REJECTED rows, filtered by run, actor and type.',
    input: ControlAuditQuery,
    output: ControlAuditPage,
    role: 'VIEWER',
    http: { method: 'GET', path: '/api/control/audit' },
  }),
  'approvals.list': op({
    summary: 'Open approvals across runs, oldest first (CTL-05): messages waiting at WAIT_FOR_SIGNAL nodes.',
    input: z.strictObject({ executionId: ExecutionId.optional(), limit: z.coerce.number().int().min(1).max(1000).default(200) }),
    output: z.array(Approval),
    role: 'VIEWER',
    http: { method: 'GET', path: '/api/approvals' },
  }),
  'signals.send': op({
    summary: 'Approve or reject at a WAIT_FOR_SIGNAL node (a Signal command): ACCEPTED, or QUEUED until the node waits.',
    input: z.strictObject({ executionId: ExecutionId, nodeId: NodeId, decision: SignalDecision.default('APPROVE'), data: z.unknown().optional() }),
    output: ControlResult,
    role: 'OPERATOR',
    http: { method: 'POST', path: '/api/executions/:executionId/signal' },
  }),
  'supervisors.list': op({
    summary: 'Reviewers (CONTROL_PLANE) and supervisors (SUPERVISOR) in order, with dry-run flag, command counts and drops.',
    input: z.strictObject({}),
    output: z.array(SupervisorInfo),
    role: 'VIEWER',
    http: { method: 'GET', path: '/api/supervisors' },
  }),
  'supervisors.getRules': op({
    summary: "The rule supervisor's rules of a session (CTL-07).",
    input: z.strictObject({ session: Identifier }),
    output: z.array(SupervisorRule),
    role: 'VIEWER',
    http: { method: 'GET', path: '/api/supervisors/rules/:session' },
  }),
  'supervisors.setRules': op({
    summary: "Replace the rule supervisor's rules of a session: CEL condition on an event → command for its run.",
    input: z.strictObject({ session: Identifier, rules: SupervisorRules }),
    output: z.array(SupervisorRule),
    role: 'ADMIN',
    http: { method: 'PUT', path: '/api/supervisors/rules/:session' },
  }),
  'plugins.control': op({
    summary: "A plugin-level control message to a node of a workflow, in every live run (CTL-08): heartbeat, statistics, or a plugin's own kind.",
    input: PluginControlInput.extend({ session: Identifier, workflowId: Identifier, nodeId: NodeId }),
    output: PluginControlReply,
    role: 'OPERATOR',
    http: { method: 'POST', path: '/api/workflows/:session/:workflowId/nodes/:nodeId/control' },
  }),
  'sessions.list': op({
    summary: 'List sessions with their workflow counts and default execution timeouts (`default` always exists).',
    input: z.strictObject({}),
    output: z.array(SessionSummary),
    role: 'VIEWER',
    http: { method: 'GET', path: '/api/sessions' },
  }),
  'sessions.create': op({
    summary: 'Create an empty session.',
    input: z.strictObject({ session: Identifier, defaultExecutionTimeoutSeconds: ExecutionTimeoutSeconds.optional() }),
    output: SessionSummary,
    role: 'ADMIN',
    http: { method: 'POST', path: '/api/sessions' },
  }),
  'sessions.rename': op({
    summary: 'Rename a session, moving its workflows; refused while runs of it are live.',
    input: z.strictObject({ session: Identifier, newSession: Identifier }),
    output: SessionSummary,
    role: 'ADMIN',
    http: { method: 'POST', path: '/api/sessions/:session/rename' },
  }),
  'sessions.delete': op({
    summary: 'Delete a session and its workflows; refused while runs of it are live.',
    input: z.strictObject({ session: Identifier }),
    output: z.object({ deleted: z.literal(true) }),
    role: 'ADMIN',
    http: { method: 'DELETE', path: '/api/sessions/:session' },
  }),
  'sessions.applyConfig': op({
    summary: 'Apply a session configuration: validate every workflow, then store the session and all of them, or nothing.',
    input: SessionConfig,
    output: ApplySessionResult,
    role: 'ADMIN',
    http: { method: 'PUT', path: '/api/sessions/:session/config' },
  }),
  // Settings, sign-in, API keys and secrets (CFG-01, SEC-01, SEC-02): their own file, spread in table order.
  ...SETTINGS_AND_SECURITY_OPERATIONS,
} as const;

export type StudioApiTable = typeof STUDIO_API;
export type OperationName = keyof StudioApiTable;
/** Input as a caller writes it (defaults optional). */
export type OperationInput<K extends OperationName> = z.input<StudioApiTable[K]['input']>;
/** Input after parsing (defaults applied) — what the host receives. */
export type ParsedInput<K extends OperationName> = z.output<StudioApiTable[K]['input']>;
export type OperationOutput<K extends OperationName> = z.output<StudioApiTable[K]['output']>;

export const OPERATION_NAMES = Object.keys(STUDIO_API) as OperationName[];

export function isOperationName(name: unknown): name is OperationName {
  return typeof name === 'string' && Object.prototype.hasOwnProperty.call(STUDIO_API, name);
}

/** The event stream route (SSE); events arrive in batches. */
export const EVENTS_HTTP_PATH = '/api/events/stream';
/** POST here (with a key) for a single-use ticket to open the event stream with `?ticket=` (a browser cannot send headers on it). */
export const EVENTS_TICKET_HTTP_PATH = '/api/events/ticket';
/** The query parameter of the event stream that carries a ticket. */
export const EVENTS_TICKET_PARAM = 'ticket';
