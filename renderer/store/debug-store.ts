import { create } from 'zustand';
import type { ControlState, NodeControlState } from '../../shared/api/control.schema';

/**
 * A breakpoint set on the canvas: unconditional (holds before the node's next message) or on a value. A
 * disabled one (`enabled: false`) stays in the Breakpoints list but is not sent with a run.
 */
export interface Breakpoint {
  condition: { path: string; equals: string } | null;
  enabled?: boolean;
}

/** Breakpoints of one workflow, by node id. */
export type WorkflowBreakpoints = Readonly<Record<string, Breakpoint>>;

const NONE: WorkflowBreakpoints = {};

/**
 * The debugger's state (STU-04), apart from the studio store: breakpoints per workflow (kept while the
 * studio is open, sent with Run and to the shown run), and the valves of the shown run as last read
 * (`control.state`: paused, step mode, held messages).
 */
export interface DebugState {
  /** `session/workflowId` of the open workflow: the breakpoints on the canvas are this entry's. */
  workflowKey: string;
  breakpoints: Readonly<Record<string, WorkflowBreakpoints>>;
  /** The shown run's valves; null when no run is shown or it was not read yet. */
  control: ControlState | null;
  /** Why the last command or read failed, shown in the run banner. */
  error: string | null;
  /** How many messages F10 lets through. */
  stepCount: number;
  /** The Stop ▾ menu of the app bar is open (Shift+F5 opens it). */
  stopMenuOpen: boolean;
  setWorkflowKey(key: string): void;
  setBreakpoint(nodeId: string, breakpoint: Breakpoint | null): void;
  /** Replaces a workflow's breakpoints as read from the host (`breakpoints.get`). */
  loadBreakpoints(workflowKey: string, breakpoints: WorkflowBreakpoints): void;
  setControl(control: ControlState | null): void;
  setError(error: string | null): void;
  setStepCount(count: number): void;
  setStopMenuOpen(open: boolean): void;
}

export const useDebug = create<DebugState>()((set) => ({
  workflowKey: '',
  breakpoints: {},
  control: null,
  error: null,
  stepCount: 1,
  stopMenuOpen: false,
  setWorkflowKey: (workflowKey) => set({ workflowKey }),
  setBreakpoint: (nodeId, breakpoint) =>
    set((s) => {
      const current = s.breakpoints[s.workflowKey] ?? NONE;
      const { [nodeId]: _old, ...rest } = current;
      const next = breakpoint ? { ...rest, [nodeId]: breakpoint } : rest;
      return { breakpoints: { ...s.breakpoints, [s.workflowKey]: next } };
    }),
  loadBreakpoints: (workflowKey, breakpoints) => set((s) => ({ breakpoints: { ...s.breakpoints, [workflowKey]: breakpoints } })),
  setControl: (control) => set({ control }),
  setError: (error) => set({ error }),
  setStepCount: (stepCount) => set({ stepCount: Math.max(1, Math.floor(stepCount) || 1) }),
  setStopMenuOpen: (stopMenuOpen) => set({ stopMenuOpen }),
}));

/** A breakpoint that is set and not disabled. */
export function isActive(bp: Breakpoint | undefined): bp is Breakpoint {
  return bp !== undefined && bp.enabled !== false;
}

/** The breakpoints of the open workflow. */
export function currentBreakpoints(s: DebugState): WorkflowBreakpoints {
  return s.breakpoints[s.workflowKey] ?? NONE;
}

/** The valve of one node of the shown run, as last read. */
export function nodeControl(s: DebugState, nodeId: string): NodeControlState | undefined {
  return s.control?.nodes.find((n) => n.nodeId === nodeId);
}

/** `runs.start`'s `debug`: the canvas breakpoints as valves (an unconditional one pauses the node). */
export function debugSettingsOf(
  breakpoints: WorkflowBreakpoints,
  nodeIds: ReadonlySet<string>,
): { paused?: string[]; breakpoints?: Array<{ nodeId: string; path: string; equals: string }> } | undefined {
  const paused: string[] = [];
  const conditional: Array<{ nodeId: string; path: string; equals: string }> = [];
  for (const [nodeId, bp] of Object.entries(breakpoints)) {
    if (!nodeIds.has(nodeId) || bp.enabled === false) continue;
    if (bp.condition) conditional.push({ nodeId, ...bp.condition });
    else paused.push(nodeId);
  }
  if (paused.length === 0 && conditional.length === 0) return undefined;
  return { ...(paused.length ? { paused } : {}), ...(conditional.length ? { breakpoints: conditional } : {}) };
}
