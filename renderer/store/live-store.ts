import { create } from 'zustand';
import type { NodeCounts } from '../../shared/events/events';
import { advanceStatus, type Status } from '../../shared/status/status';

/** Live state of one node in the displayed run. */
export interface LiveNodeState {
  status: Status;
  counts: NodeCounts;
}

export interface LiveNodeUpdate extends LiveNodeState {
  nodeId: string;
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
  /** Starts showing a run (clears the previous one). */
  show(executionId: string | null): void;
  /** Forward-only merge of node states of the shown run; others are ignored. */
  applyNodes(executionId: string, updates: readonly LiveNodeUpdate[]): void;
  applyRunStatus(executionId: string, status: Status): void;
}

export function createLiveStore() {
  return create<LiveState>()((set) => ({
    executionId: null,
    runStatus: null,
    nodes: {},
    show: (executionId) => set({ executionId, runStatus: null, nodes: {} }),
    applyNodes: (executionId, updates) =>
      set((s) => {
        if (s.executionId !== executionId || updates.length === 0) return {};
        const nodes = mergeNodeStates(s.nodes, updates);
        return nodes === s.nodes ? {} : { nodes };
      }),
    applyRunStatus: (executionId, status) =>
      set((s) => {
        if (s.executionId !== executionId) return {};
        const next = s.runStatus ? advanceStatus(s.runStatus, status) : status;
        return next === s.runStatus ? {} : { runStatus: next };
      }),
  }));
}

/** Merges updates into the map, keeping the identity of every entry (and of the map) that did not change. */
export function mergeNodeStates(current: Readonly<Record<string, LiveNodeState>>, updates: readonly LiveNodeUpdate[]): Readonly<Record<string, LiveNodeState>> {
  let next: Record<string, LiveNodeState> | null = null;
  for (const u of updates) {
    const prev = (next ?? current)[u.nodeId];
    const merged = prev ? mergeNode(prev, u) : { status: u.status, counts: { received: u.counts.received, emitted: u.counts.emitted } };
    if (merged === prev) continue;
    next ??= { ...current };
    next[u.nodeId] = merged;
  }
  return next ?? current;
}

/** Statuses only move forward; counts only grow (a snapshot and events may arrive in either order). */
function mergeNode(prev: LiveNodeState, update: LiveNodeState): LiveNodeState {
  const status = advanceStatus(prev.status, update.status);
  const received = Math.max(prev.counts.received, update.counts.received);
  const emitted = Math.max(prev.counts.emitted, update.counts.emitted);
  if (status === prev.status && received === prev.counts.received && emitted === prev.counts.emitted) return prev;
  return { status, counts: { received, emitted } };
}

export const useLive = createLiveStore();
