import type { Status } from '../../shared/status/status';
import type { NodeControl } from '../plugins/contract';
import type { NodeTimers } from './node-timers';

/**
 * Records one node's output messages and its end (CTL-04, DUR-02): the checkpoint hook of the node
 * wrapper. Called on the hot path, so implementations keep `record` cheap; a run without a recorder pays
 * one null check per message.
 */
export interface NodeRecorder {
  /** Records one output; false once nothing more will be kept for this node (a cap passed), so the caller stops calling. */
  record(port: string, payload: unknown, metadata: Readonly<Record<string, string>>): boolean;
  /** The durable end marker: the node ended with this status. */
  end(status: Status): void;
}

/** The recorder of one run: one node recorder per node (null for a node it does not record). */
export interface RunRecorder {
  node(nodeId: string): NodeRecorder | null;
  /** The run ended with this status. */
  ended(status: Status): void;
}

/** What the control plane needs from a node to serve its plugin's `ctx.control`. */
export interface ControlledNode {
  readonly executionId: string;
  readonly session: string;
  readonly workflowId: string;
  readonly nodeId: string;
  readonly timers: NodeTimers;
  /** Fires when the node or run stops, times out or ends. */
  readonly signal: AbortSignal;
  activity(): void;
}

/** Serves `ctx.control` (signals CTL-05, plugin-level control bus CTL-08) for a run's nodes. */
export interface RunControl {
  forNode(node: ControlledNode): NodeControl;
}

/** `ctx.control` of a run started without a control plane. */
export const NO_CONTROL: NodeControl = {
  waitForSignal: () => Promise.reject(new Error('signals need the control plane, and this run was started without one')),
  onControl: () => undefined,
};
