import { z } from 'zod';
import { definePlugin, type Plugin } from '../plugins/contract';
import type { RecordedMessage } from '../store/checkpoint-store';
import { resolvePolicy } from './failure-policy';
import type { PreparedNode, PreparedWorkflow } from './prepared-workflow';

/** The node type a replayed node runs as (never registered: it exists only inside a restart's graph). */
export const REPLAY_TYPE = 'yukta:REPLAY';

const NO_CONFIG = z.object({});

/** A trigger that emits a node's recorded outputs on their ports, in their order, then ends SUCCESS. */
function replayPlugin(messages: readonly RecordedMessage[]): Plugin<unknown> {
  return definePlugin({
    type: REPLAY_TYPE,
    kind: 'trigger',
    title: 'Replay',
    description: 'Emits the outputs a node recorded in an earlier run (restart from node, CTL-04).',
    configSchema: NO_CONFIG,
    defaultConfig: {},
    outputs: [],
    *process() {
      for (const m of messages) yield { payload: m.payload, metadata: m.metadata as Record<string, string>, port: m.port };
    },
  }) as Plugin<unknown>;
}

/**
 * The graph of a restart from a node (CTL-04): the nodes to run again keep their definition; each node
 * feeding them from outside becomes a replay of its recorded output, wired only to the nodes that run
 * again; every other node (independent branches, nodes further up) is left out. The run engine needs no
 * special case: a replayed node is a trigger whose output is the recording, and it is recorded again under
 * the new run, so that run can be restarted from the same place.
 */
export function replayGraph(
  prepared: PreparedWorkflow,
  rerun: ReadonlySet<string>,
  replays: ReadonlyMap<string, readonly RecordedMessage[]>,
): PreparedWorkflow {
  const nodes = new Map<string, PreparedNode>();
  for (const nodeId of rerun) nodes.set(nodeId, prepared.nodes.get(nodeId)!);
  for (const [nodeId, messages] of replays) {
    const original = prepared.nodes.get(nodeId)!;
    const outgoing = new Map<string, readonly string[]>();
    for (const [port, children] of original.outgoing) {
      const kept = children.filter((c) => rerun.has(c));
      if (kept.length) outgoing.set(port, kept);
    }
    nodes.set(nodeId, {
      ...original,
      kind: 'trigger',
      plugin: replayPlugin(messages),
      config: {},
      trigger: 'ALL_SUCCESS',
      policy: resolvePolicy({}),
      edgeBuffer: null,
      outgoing,
      incoming: 0,
    });
  }
  return { definition: prepared.definition, version: prepared.version, nodes, nodeIds: [...nodes.keys()] };
}
