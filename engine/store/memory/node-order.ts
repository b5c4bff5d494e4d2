/**
 * The nodes of runs in the order they were first written, shared by the runs that write the same nodes in
 * the same order (the runs of one workflow, whose stages start in graph order): a run holds how many of the
 * order's nodes it wrote, not an index of its own. Append-only: a run that writes the order's next node
 * moves along it, one that writes a node beyond its end extends it, and one that writes another node gets
 * its own copy (as a run of another graph does).
 */
export class NodeOrder {
  readonly ids: string[];
  private readonly index: Map<string, number>;

  constructor(ids: readonly string[] = []) {
    this.ids = [...ids];
    this.index = new Map(this.ids.map((id, i) => [id, i]));
  }

  indexOf(nodeId: string): number {
    return this.index.get(nodeId) ?? -1;
  }

  /** Makes `nodeId` the node at `at` for a run that wrote the first `at` nodes; returns the order that holds it there. */
  extended(at: number, nodeId: string): NodeOrder {
    if (this.ids[at] === nodeId) return this;
    const order = at === this.ids.length ? this : new NodeOrder(this.ids.slice(0, at));
    order.index.set(nodeId, order.ids.length);
    order.ids.push(nodeId);
    return order;
  }
}

/** Above this many first nodes the store starts over (orders are a cache: any run can make its own). */
const MAX_ORDERS = 256;

/** Orders by their first node, so a new run finds the one its workflow's earlier runs wrote. */
export class NodeOrders {
  private readonly byFirst = new Map<string, NodeOrder>();

  /** The order a run starts with when the first node it writes is `nodeId`. */
  startingWith(nodeId: string): NodeOrder {
    let order = this.byFirst.get(nodeId);
    if (order) return order;
    if (this.byFirst.size >= MAX_ORDERS) this.byFirst.clear();
    this.byFirst.set(nodeId, (order = new NodeOrder([nodeId])));
    return order;
  }
}
