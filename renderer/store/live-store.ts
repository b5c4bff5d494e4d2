import { create } from 'zustand';
import type { ErrorInfo, NodeCounts } from '../../shared/events/events';
import { advanceStatus, isTerminal, type Status } from '../../shared/status/status';
import { holdClosed, holdOpened, NO_HOLD, type HoldClock } from './hold-clock';
import { RecentRuns } from './recent-runs';

/** A node's input buffer as last reported: messages waiting and capacity (ENG-01). */
export interface BufferFill {
  used: number;
  size: number;
}

/** Live state of one node in the displayed run. */
export interface LiveNodeState {
  status: Status;
  counts: NodeCounts;
  /** When the node started and ended (engine clock), for the inspector and the timeline. */
  startedAt?: number;
  endedAt?: number;
  /** The id of the message held at the node's valve (breakpoint, pause, step), if any. */
  held?: string | null;
  buffer?: BufferFill;
  /** The attempt running now for a message being retried (ENG-04), while above 1. */
  attempt?: number;
  /** Why the node ended in failure: message, kind, attempt n of m and the input that failed (STU-03). */
  error?: ErrorInfo;
  /** Time held at its valve or waiting for a signal, seen while the run was shown (STU-04). */
  hold?: HoldClock;
}

/** A message started (OPEN) or stopped (CLOSED) waiting for a signal at a node (APPROVAL events). */
export interface WaitChange {
  nodeId: string;
  open: boolean;
  at: number;
}

/** What one event or snapshot says about a node; absent fields leave the known value alone. */
export interface LiveNodeUpdate {
  nodeId: string;
  status: Status;
  counts: NodeCounts;
  /** When it was reported: a RUNNING update starts the node's bar, a terminal one ends it. */
  at?: number;
  startedAt?: number;
  endedAt?: number;
  held?: string | null;
  buffer?: BufferFill;
  /** From a NODE_STATUS event: the attempt running now, or null for none; absent (a snapshot): unchanged. */
  attempt?: number | null;
  error?: ErrorInfo;
  /** When a held message was learned without an event time (a `control.state` read): the hold starts then. */
  heldAt?: number;
}

/**
 * High-rate run progress, kept apart from the studio store: nodes subscribe narrowly
 * (`useLive(s => s.nodes[id])`) and an update replaces only the entries it touches, so only those
 * nodes re-render.
 */
export interface LiveState {
  /** The run shown on the canvas, or null. */
  executionId: string | null;
  runStatus: Status | null;
  nodes: Readonly<Record<string, LiveNodeState>>;
  /** Each node's status alone: a new map only when a status changes (not counts), so the minimap redraws then. */
  statuses: Readonly<Record<string, Status>>;
  /** Time some node of the run was held or waiting (overlaps counted once), seen while the run was shown. */
  runHold: HoldClock;
  /** Runs of the open workflow heard of but not shown yet (a run just started shows from them). */
  readonly recent: RecentRuns;
  /** Starts showing a run (clears the previous one). */
  show(executionId: string | null): void;
  /** Forward-only merge of node states of the shown run; others are ignored. */
  applyNodes(executionId: string, updates: readonly LiveNodeUpdate[]): void;
  applyRunStatus(executionId: string, status: Status): void;
  /** Messages starting or ending a wait for a signal at nodes of the shown run. */
  applyWaits(executionId: string, changes: readonly WaitChange[]): void;
  /**
   * Opens the waits the inbox lists for the shown run that no event opened here (they began before the run
   * was shown), each from its `since`.
   */
  reconcileWaits(approvals: ReadonlyArray<{ executionId: string; nodeId: string; since: number }>): void;
}

export function createLiveStore() {
  return create<LiveState>()((set, get) => ({
    executionId: null,
    runStatus: null,
    nodes: {},
    statuses: {},
    runHold: NO_HOLD,
    recent: new RecentRuns(mergeNodeStates),
    show: (executionId) => set({ executionId, runStatus: null, nodes: {}, statuses: {}, runHold: NO_HOLD }),
    applyNodes: (executionId, updates) =>
      set((s) => {
        if (s.executionId !== executionId || updates.length === 0) return {};
        const merged = mergeNodeStates(s.nodes, updates);
        if (merged === s.nodes) return {};
        const statuses = withStatuses(s.statuses, merged, updates);
        const runHold = runHoldAfter(s.runHold, s.nodes, merged, updates);
        const patch: Partial<LiveState> = statuses === s.statuses ? { nodes: merged } : { nodes: merged, statuses };
        if (runHold !== s.runHold) patch.runHold = runHold;
        return patch;
      }),
    applyWaits: (executionId, changes) =>
      set((s) => {
        if (s.executionId !== executionId || changes.length === 0) return {};
        const nodes = { ...s.nodes };
        let runHold = s.runHold;
        for (const c of changes) {
          const prev = nodes[c.nodeId] ?? { status: 'RUNNING' as const, counts: { received: 0, emitted: 0 } };
          const before = prev.hold ?? NO_HOLD;
          const hold = c.open ? holdOpened(before, c.at) : holdClosed(before, c.at);
          nodes[c.nodeId] = { ...prev, hold };
          runHold = runHoldStep(runHold, before, hold, c.at);
        }
        return { nodes, runHold };
      }),
    reconcileWaits: (approvals) => {
      const { executionId, nodes } = get();
      if (executionId === null) return;
      const missing: WaitChange[] = [];
      const listed = new Map<string, number[]>();
      for (const a of approvals) if (a.executionId === executionId) listed.set(a.nodeId, [...(listed.get(a.nodeId) ?? []), a.since]);
      for (const [nodeId, since] of listed) {
        const open = nodes[nodeId]?.hold?.open ?? 0;
        for (const at of since.sort((x, y) => x - y).slice(open)) missing.push({ nodeId, open: true, at });
      }
      if (missing.length) get().applyWaits(executionId, missing);
    },
    applyRunStatus: (executionId, status) =>
      set((s) => {
        if (s.executionId !== executionId) return {};
        const next = s.runStatus ? advanceStatus(s.runStatus, status) : status;
        if (next === s.runStatus) return {};
        // An ended run holds nothing any more (a stop does not report each valve letting go).
        return isTerminal(next) ? { runStatus: next, nodes: releaseHeld(s.nodes) } : { runStatus: next };
      }),
  }));
}

/** Merges updates into the map, keeping the identity of every entry (and of the map) that did not change. */
export function mergeNodeStates(current: Readonly<Record<string, LiveNodeState>>, updates: readonly LiveNodeUpdate[]): Readonly<Record<string, LiveNodeState>> {
  let next: Record<string, LiveNodeState> | null = null;
  for (const u of updates) {
    const prev = (next ?? current)[u.nodeId];
    const merged = mergeNode(prev, u);
    if (merged === prev) continue;
    next ??= { ...current };
    next[u.nodeId] = merged;
  }
  return next ?? current;
}

function withStatuses(
  statuses: Readonly<Record<string, Status>>,
  nodes: Readonly<Record<string, LiveNodeState>>,
  updates: readonly LiveNodeUpdate[],
): Readonly<Record<string, Status>> {
  let next: Record<string, Status> | null = null;
  for (const { nodeId } of updates) {
    const status = nodes[nodeId]?.status;
    if (status === undefined || statuses[nodeId] === status) continue;
    next ??= { ...statuses };
    next[nodeId] = status;
  }
  return next ?? statuses;
}

/**
 * Statuses only move forward; counts only grow (a snapshot and events may arrive in either order); the
 * held message and the buffer fill are the latest reported. Returns `prev` itself when nothing changed.
 */
function mergeNode(prev: LiveNodeState | undefined, u: LiveNodeUpdate): LiveNodeState {
  const status = prev ? advanceStatus(prev.status, u.status) : u.status;
  const counts = prev ? mergeCounts(prev.counts, u.counts) : copyCounts(u.counts);
  const startedAt = prev?.startedAt ?? u.startedAt ?? (status === 'RUNNING' || isTerminal(status) ? u.at : undefined);
  const endedAt = prev?.endedAt ?? u.endedAt ?? (isTerminal(status) ? u.at : undefined);
  const held = u.held !== undefined ? u.held : prev?.held;
  const buffer = u.buffer && !(prev?.buffer && sameBuffer(prev.buffer, u.buffer)) ? { used: u.buffer.used, size: u.buffer.size } : prev?.buffer;
  const attempt = u.attempt !== undefined ? (u.attempt ?? undefined) : prev?.attempt;
  const error = prev?.error ?? u.error;
  const hold = holdAfter(prev, held, u.at ?? u.heldAt);
  if (
    prev &&
    status === prev.status &&
    counts === prev.counts &&
    startedAt === prev.startedAt &&
    endedAt === prev.endedAt &&
    held === prev.held &&
    buffer === prev.buffer &&
    attempt === prev.attempt &&
    error === prev.error &&
    hold === prev.hold
  )
    return prev;
  const next: LiveNodeState = { status, counts };
  if (startedAt !== undefined) next.startedAt = startedAt;
  if (endedAt !== undefined) next.endedAt = endedAt;
  if (held !== undefined) next.held = held;
  if (buffer !== undefined) next.buffer = buffer;
  if (attempt !== undefined) next.attempt = attempt;
  if (error !== undefined) next.error = error;
  if (hold !== undefined) next.hold = hold;
  return next;
}

/** A message held at the valve opens a hold; its release closes it (at the event's time). */
function holdAfter(prev: LiveNodeState | undefined, held: string | null | undefined, at: number | undefined): HoldClock | undefined {
  const before = prev?.hold;
  const wasHeld = Boolean(prev?.held);
  if (at === undefined || wasHeld === Boolean(held)) return before;
  return held ? holdOpened(before ?? NO_HOLD, at) : holdClosed(before ?? NO_HOLD, at);
}

/** The run is held while any node is: a node's first open hold opens the run's, its last close closes it. */
function runHoldStep(run: HoldClock, before: HoldClock, after: HoldClock, at: number): HoldClock {
  if (before.open === 0 && after.open > 0) return holdOpened(run, at);
  if (before.open > 0 && after.open === 0) return holdClosed(run, at);
  return run;
}

function runHoldAfter(
  run: HoldClock,
  before: Readonly<Record<string, LiveNodeState>>,
  after: Readonly<Record<string, LiveNodeState>>,
  updates: readonly LiveNodeUpdate[],
): HoldClock {
  let next = run;
  const seen = new Set<string>();
  for (const u of updates) {
    if (seen.has(u.nodeId)) continue;
    seen.add(u.nodeId);
    const a = before[u.nodeId]?.hold;
    const b = after[u.nodeId]?.hold;
    if (a !== b && u.at !== undefined) next = runHoldStep(next, a ?? NO_HOLD, b ?? NO_HOLD, u.at);
  }
  return next;
}

const COUNT_KEYS = ['received', 'emitted', 'failed', 'retried', 'dropped'] as const;

function copyCounts(counts: NodeCounts): NodeCounts {
  const out: NodeCounts = { received: counts.received, emitted: counts.emitted };
  for (const key of COUNT_KEYS) if (counts[key] !== undefined) out[key] = counts[key];
  return out;
}

/** Each count is the larger of the two; the same object when nothing grew. */
function mergeCounts(prev: NodeCounts, update: NodeCounts): NodeCounts {
  let out: NodeCounts | null = null;
  for (const key of COUNT_KEYS) {
    const value = update[key];
    if (value === undefined || value <= (prev[key] ?? 0)) continue;
    out ??= copyCounts(prev);
    out[key] = value;
  }
  return out ?? prev;
}

function releaseHeld(nodes: Readonly<Record<string, LiveNodeState>>): Readonly<Record<string, LiveNodeState>> {
  let next: Record<string, LiveNodeState> | null = null;
  for (const [id, node] of Object.entries(nodes)) {
    if (!node.held) continue;
    next ??= { ...nodes };
    next[id] = { ...node, held: null };
  }
  return next ?? nodes;
}

function sameBuffer(a: BufferFill, b: BufferFill): boolean {
  return a.used === b.used && a.size === b.size;
}

export const useLive = createLiveStore();

// bench/ui-live: a page that installs the render probe (`__yuktaRenderProbe`, see render-probe.ts) before the
// studio loads also gets this store as `__yuktaLive`, to count which nodes each update changed.
if (typeof (globalThis as { __yuktaRenderProbe?: unknown }).__yuktaRenderProbe === 'function') (globalThis as { __yuktaLive?: unknown }).__yuktaLive = useLive;
