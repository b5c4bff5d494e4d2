import type { RecordedNode, RecordedStream, RecordedSummary } from '../../shared/api/runs.schema';
import { NotFoundError } from '../engine-errors';
import { contentHash } from '../definitions/content-hash';
import type { NodeCheckpoint, RecordedMessage } from '../store/checkpoint-store';
import type { RunArchive } from './restart/run-archive';

/** A window of recorded messages. */
export interface RecordedPage {
  offset: number;
  limit: number;
}

/**
 * What a node of an archived run sent (its recorded outputs) and received (its parents' outputs on the edges
 * into it), a page at a time (STU-04: browse recorded messages). Reads the same checkpoints restarts replay.
 */
export async function recordedNode(archive: RunArchive, executionId: string, nodeId: string, page: RecordedPage): Promise<RecordedNode> {
  const run = archivedRun(archive, executionId);
  if (!run.prepared.nodes.has(nodeId)) throw new NotFoundError(`node "${nodeId}" is not in run "${executionId}"`, 'nodeId');
  const edges: Array<{ from: string; port: string }> = [];
  for (const [from, parent] of run.prepared.nodes) {
    for (const [port, targets] of parent.outgoing) if (targets.includes(nodeId)) edges.push({ from, port });
  }
  const recorded = await archive.checkpoints(executionId, [nodeId, ...edges.map((e) => e.from)]);
  const outputs = streamOf(recorded.get(nodeId) ?? null, () => true, page);
  const inputs: RecordedNode['inputs'] = edges.map(({ from, port }) => ({ from, port, ...streamOf(recorded.get(from) ?? null, (m) => m.port === port, page) }));
  return { executionId, nodeId, outputs, inputs };
}

/** Every node's output count and digest (SHA-256 of its ports and payloads in order), to compare two runs. */
export async function recordedSummary(archive: RunArchive, executionId: string): Promise<RecordedSummary> {
  const run = archivedRun(archive, executionId);
  const recorded = await archive.checkpoints(executionId, run.prepared.nodes.keys());
  const nodes = [...run.prepared.nodes.keys()].map((nodeId) => {
    const checkpoint = recorded.get(nodeId);
    const messages = checkpoint?.messages ?? [];
    return { nodeId, outputs: messages.length, digest: digestOf(messages), end: checkpoint?.end ?? null, overCap: checkpoint?.overCap ?? null };
  });
  return { executionId, recorded: run.recorded, nodes };
}

function archivedRun(archive: RunArchive, executionId: string) {
  const run = archive.get(executionId);
  if (!run)
    throw new NotFoundError(
      `run "${executionId}" is not in the run archive (it keeps live runs and the newest ${archive.retainedRuns} finished top-level runs)`,
      'executionId',
    );
  return run;
}

function streamOf(checkpoint: NodeCheckpoint | null, keep: (m: RecordedMessage) => boolean, page: RecordedPage): RecordedStream {
  const all = checkpoint?.messages ?? [];
  const messages: RecordedStream['messages'] = [];
  let total = 0;
  for (const m of all) {
    if (!keep(m)) continue;
    if (total >= page.offset && messages.length < page.limit) messages.push({ index: total, port: m.port, payload: m.payload, metadata: { ...m.metadata } });
    total++;
  }
  return { total, messages, end: checkpoint?.end ?? null, overCap: checkpoint?.overCap ?? null };
}

function digestOf(messages: readonly RecordedMessage[]): string {
  try {
    return contentHash(messages.map((m) => [m.port, m.payload ?? null]));
  } catch {
    // A payload JSON cannot express (a cycle, a BigInt): compare by count only.
    return `unhashable:${messages.length}`;
  }
}
