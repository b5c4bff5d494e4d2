import type { NodeRunState, RecordedSummary, RunDetail } from '../../../shared/api/runs.schema';
import type { NodeCounts } from '../../../shared/events/events';
import type { Status } from '../../../shared/status/status';

/** One side of a node in a comparison. */
export interface NodeSide {
  status: Status;
  counts: NodeCounts;
  /** Recorded outputs: how many, and their digest; absent when the run recorded none. */
  outputs?: { count: number; digest: string };
}

/** One node compared across two runs of a workflow (STU-04). */
export interface NodeComparison {
  nodeId: string;
  a: NodeSide | null;
  b: NodeSide | null;
  statusDiffers: boolean;
  countsDiffer: boolean;
  /** The recorded outputs differ (count or content); false when either run has no recording of the node. */
  outputDiffers: boolean;
}

/**
 * Compares two runs node by node: status, received/emitted counts, and recorded outputs (by digest: the
 * host hashes each node's ports and payloads in order). Nodes of only one run are listed with the other
 * side null. Order: the first run's nodes, then the second's new ones.
 */
export function compareRuns(a: RunDetail, b: RunDetail, recordedA: RecordedSummary | null, recordedB: RecordedSummary | null): NodeComparison[] {
  const sideA = sides(a.nodes, recordedA);
  const sideB = sides(b.nodes, recordedB);
  const ids = [...new Set([...sideA.keys(), ...sideB.keys()])];
  return ids.map((nodeId) => {
    const x = sideA.get(nodeId) ?? null;
    const y = sideB.get(nodeId) ?? null;
    const both = x !== null && y !== null;
    return {
      nodeId,
      a: x,
      b: y,
      statusDiffers: !both || x.status !== y.status,
      countsDiffer: !both || x.counts.received !== y.counts.received || x.counts.emitted !== y.counts.emitted,
      outputDiffers:
        both && x.outputs !== undefined && y.outputs !== undefined && (x.outputs.count !== y.outputs.count || x.outputs.digest !== y.outputs.digest),
    };
  });
}

function sides(nodes: readonly NodeRunState[], recorded: RecordedSummary | null): Map<string, NodeSide> {
  const outputs = new Map(recorded?.recorded ? recorded.nodes.map((n) => [n.nodeId, { count: n.outputs, digest: n.digest }]) : []);
  return new Map(
    nodes.map((n) => {
      const side: NodeSide = { status: n.status, counts: n.counts };
      const out = outputs.get(n.nodeId);
      if (out) side.outputs = out;
      return [n.nodeId, side];
    }),
  );
}

/** Whether a node differs at all. */
export function differs(c: NodeComparison): boolean {
  return c.statusDiffers || c.countsDiffer || c.outputDiffers;
}
