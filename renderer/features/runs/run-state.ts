import type { Approval } from '../../../shared/api/control.schema';
import type { RunSummary } from '../../../shared/api/runs.schema';
import type { ErrorInfo } from '../../../shared/events/events';
import type { LiveNodeState } from '../../store/live-store';

/** Where a failed run failed and why, for the banner "Failed at <node>: <message>" (UI.md). */
export interface RunFailure {
  nodeId: string | null;
  message: string;
}

/** The node's own message when the node is known (the run's says `node "x" failed: …`), else the run's. */
export function runFailure(run: Pick<RunSummary, 'error'> | undefined, nodes: Readonly<Record<string, LiveNodeState>>): RunFailure | null {
  const error: ErrorInfo | undefined = run?.error;
  const failedNode = error?.nodeId ?? Object.entries(nodes).find(([, n]) => n.error)?.[0] ?? null;
  const nodeError = failedNode ? nodes[failedNode]?.error : undefined;
  if (!error && !nodeError) return null;
  return { nodeId: failedNode, message: nodeError?.message ?? error?.message ?? '' };
}

/** The run's held and waiting state: nodes held at a breakpoint (shown run) and messages waiting for a signal. */
export interface RunHoldState {
  heldAt: string[];
  waiting: number;
}

export function runHoldState(executionId: string, nodes: Readonly<Record<string, LiveNodeState>> | null, approvals: readonly Approval[]): RunHoldState {
  const heldAt = nodes ? Object.entries(nodes).flatMap(([id, n]) => (n.held ? [id] : [])) : [];
  const waiting = approvals.reduce((n, a) => (a.executionId === executionId ? n + 1 : n), 0);
  return { heldAt, waiting };
}
