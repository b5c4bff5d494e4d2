import { assertNever } from '../../../shared/assert-never';
import type { RunResult } from '../../../shared/api/runs.schema';
import type { StudioEvent } from '../../../shared/events/events';
import type { Status } from '../../../shared/status/status';
import type { LiveNodeUpdate, WaitChange } from '../../store/live-store';
import { useLive } from '../../store/live-store';
import type { RecentRuns } from '../../store/recent-runs';
import { useRunFeed, type LogLine } from '../../store/run-feed-store';
import type { RunStatusChange } from '../../store/runs-slice';
import { useStudio } from '../../store/studio-store';

/** The event types the studio subscribes to: run list, canvas overlay, logs, results, debugger and inbox. */
export const LIVE_EVENT_TYPES = ['EXECUTION_STATUS', 'NODE_STATUS', 'NODE_RESULT', 'LOG', 'CONTROL', 'APPROVAL'] as const;

type ApprovalEvent = Extract<StudioEvent, { type: 'APPROVAL' }>;
type ExecutionStatusEvent = Extract<StudioEvent, { type: 'EXECUTION_STATUS' }>;
/** What a batch says of one recent run that is not shown. */
type RecentChange = { nodes: LiveNodeUpdate[]; status: Status | null; results: RunResult[] };

/** What a set of events asks of the debugger and the inbox (they read the host again, at most once each). */
export interface EventHooks {
  /** The shown run's valves changed: a message was held or let go, or a command was applied. */
  controlChanged?(executionId: string): void;
  /** Approvals opened or closed (in arrival order). */
  approvalsChanged?(events: readonly ApprovalEvent[]): void;
}

interface Sorted {
  runChanges: RunStatusChange[];
  nodeUpdates: LiveNodeUpdate[];
  results: RunResult[];
  logs: Map<string, LogLine[]>;
  approvals: ApprovalEvent[];
  shownRunStatus: Status | null;
  controlChanged: boolean;
  /** What this batch says of recent runs not shown (kept until one is shown, e.g. a run just started). */
  recent: Map<string, RecentChange>;
}

/**
 * Applies a coalesced set of events with one update per store: EXECUTION_STATUS to the run list, NODE_STATUS
 * and NODE_RESULT of the shown run to the live store and the results, LOG lines of the open workflow's runs
 * to the logs; CONTROL and held messages of the shown run, and APPROVAL events, go to the hooks.
 */
export function applyStudioEvents(events: readonly StudioEvent[], hooks: EventHooks = {}, studio = useStudio, live = useLive, feed = useRunFeed): void {
  const shown = live.getState().executionId;
  const { runs, session, storedWorkflowId } = studio.getState();
  const recent = live.getState().recent;
  const sorted = sortEvents(events, shown, { logged: loggedRuns(runs, shown), session, workflowId: storedWorkflowId, recent });
  for (const [executionId, change] of sorted.recent) recent.add(executionId, change);
  if (sorted.runChanges.length) studio.getState().applyRunStatuses(sorted.runChanges);
  if (shown !== null && sorted.nodeUpdates.length) live.getState().applyNodes(shown, sorted.nodeUpdates);
  if (shown !== null && sorted.shownRunStatus !== null) live.getState().applyRunStatus(shown, sorted.shownRunStatus);
  if (shown !== null && sorted.results.length) feed.getState().appendResults(shown, sorted.results);
  if (sorted.logs.size) feed.getState().appendLogs(sorted.logs);
  if (shown !== null && sorted.controlChanged) hooks.controlChanged?.(shown);
  if (sorted.approvals.length) hooks.approvalsChanged?.(sorted.approvals);
  if (shown !== null && sorted.approvals.length) live.getState().applyWaits(shown, waitsOf(sorted.approvals, shown));
}

/** Runs whose logs are kept: the open workflow's (also those announced in this very batch) and the shown one. */
interface LogScope {
  logged: Set<string>;
  session: string;
  workflowId: string | null;
  /** Runs of the open workflow announced but not shown: their events are kept, not dropped. */
  recent: RecentRuns;
}

function sortEvents(events: readonly StudioEvent[], shown: string | null, scope: LogScope): Sorted {
  const out: Sorted = {
    runChanges: [],
    nodeUpdates: [],
    results: [],
    logs: new Map(),
    approvals: [],
    shownRunStatus: null,
    controlChanged: false,
    recent: new Map(),
  };
  for (const event of events) {
    switch (event.type) {
      case 'EXECUTION_STATUS':
        sortRunStatus(out, event, shown, scope);
        break;
      case 'NODE_STATUS':
        if (event.executionId !== shown) {
          if (scope.recent.has(event.executionId)) recentOf(out.recent, event.executionId).nodes.push(nodeUpdateOf(event));
          break;
        }
        out.nodeUpdates.push(nodeUpdateOf(event));
        if (event.held !== undefined) out.controlChanged = true;
        break;
      case 'NODE_RESULT':
        if (event.executionId === shown) out.results.push(resultOf(event));
        else if (scope.recent.has(event.executionId)) recentOf(out.recent, event.executionId).results.push(resultOf(event));
        break;
      case 'LOG':
        if (scope.logged.has(event.executionId)) pushLog(out.logs, event);
        break;
      case 'CONTROL':
        if (event.executionId === shown) out.controlChanged = true;
        break;
      case 'APPROVAL':
        out.approvals.push(event);
        break;
      default:
        assertNever(event, 'event');
    }
  }
  return out;
}

/**
 * An EXECUTION_STATUS: a change of the run list; the shown run's status (its announcement names every node:
 * they show PENDING until their first event) or a recent run's; a run of the open workflow gets its logs kept.
 */
function sortRunStatus(out: Sorted, event: ExecutionStatusEvent, shown: string | null, scope: LogScope): void {
  out.runChanges.push(runChangeOf(event));
  if (event.executionId === shown) {
    out.shownRunStatus = event.status;
    if (event.nodeIds) for (const nodeId of event.nodeIds) out.nodeUpdates.push({ nodeId, status: 'PENDING', counts: { received: 0, emitted: 0 } });
  } else if (scope.recent.has(event.executionId)) recentOf(out.recent, event.executionId).status = event.status;
  if (event.session === scope.session && event.workflowId === scope.workflowId) {
    scope.logged.add(event.executionId);
    if (event.nodeIds && event.executionId !== shown) scope.recent.announce(event.executionId, event.nodeIds);
  }
}

function runChangeOf(event: ExecutionStatusEvent): RunStatusChange {
  return {
    executionId: event.executionId,
    session: event.session,
    workflowId: event.workflowId,
    definitionVersion: event.definitionVersion,
    status: event.status,
    at: event.at,
    ...(event.error ? { error: event.error } : {}),
  };
}

function recentOf(recent: Map<string, RecentChange>, executionId: string): RecentChange {
  let change = recent.get(executionId);
  if (!change) recent.set(executionId, (change = { nodes: [], status: null, results: [] }));
  return change;
}

function waitsOf(approvals: readonly ApprovalEvent[], shown: string): WaitChange[] {
  return approvals.filter((a) => a.executionId === shown).map((a) => ({ nodeId: a.nodeId, open: a.state === 'OPEN', at: a.at }));
}

function nodeUpdateOf(event: Extract<StudioEvent, { type: 'NODE_STATUS' }>): LiveNodeUpdate {
  const update: LiveNodeUpdate = { nodeId: event.nodeId, status: event.status, counts: event.counts, at: event.at };
  if (event.held !== undefined) update.held = event.held;
  if (event.buffer !== undefined) update.buffer = event.buffer;
  update.attempt = event.attempt ?? null;
  if (event.error !== undefined) update.error = event.error;
  return update;
}

function resultOf(event: Extract<StudioEvent, { type: 'NODE_RESULT' }>): RunResult {
  return { nodeId: event.nodeId, messageId: event.messageId, payload: event.payload, ...(event.metadata ? { metadata: event.metadata } : {}) };
}

function pushLog(logs: Map<string, LogLine[]>, event: Extract<StudioEvent, { type: 'LOG' }>): void {
  const line: LogLine = { seq: event.seq, at: event.at, level: event.level, text: event.text };
  if (event.nodeId !== undefined) line.nodeId = event.nodeId;
  let lines = logs.get(event.executionId);
  if (!lines) logs.set(event.executionId, (lines = []));
  lines.push(line);
}

/** Logs are kept for the open workflow's runs and the shown run, not for every run of the host. */
function loggedRuns(runs: ReadonlyArray<{ executionId: string }>, shown: string | null): Set<string> {
  const ids = new Set(runs.map((r) => r.executionId));
  if (shown !== null) ids.add(shown);
  return ids;
}
