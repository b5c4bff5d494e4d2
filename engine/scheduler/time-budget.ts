import type { PreparedNode, PreparedWorkflow } from '../runtime/prepared-workflow';

/**
 * A run's time budget (`yukta.timeBudget`, ADM-04) as an element timeout on every node: each attempt of
 * each node gets at most the budget; a node's own `elementTimeoutMs` wins when it is smaller. The cached
 * prepared workflow is not touched: the run gets its own copy of the nodes.
 */
export function withTimeBudget(prepared: PreparedWorkflow, budgetMs: number | undefined): PreparedWorkflow {
  if (budgetMs === undefined) return prepared;
  const nodes = new Map<string, PreparedNode>();
  for (const [id, node] of prepared.nodes) {
    const own = node.policy.elementTimeoutMs;
    const elementTimeoutMs = own === null ? budgetMs : Math.min(own, budgetMs);
    nodes.set(id, { ...node, policy: { ...node.policy, elementTimeoutMs, perMessageAttempts: true } });
  }
  return { ...prepared, nodes };
}

/** A sub-workflow inherits its parent's budget; its own payload may only shorten it. */
export function childBudget(parentMs: number | undefined, ownMs: number | undefined): number | undefined {
  if (parentMs === undefined) return ownMs;
  return ownMs === undefined ? parentMs : Math.min(parentMs, ownMs);
}
