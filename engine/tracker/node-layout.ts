/**
 * The nodes of a run in order, each at an index of the run's compact records. Runs of one prepared
 * workflow announce the same node-id array, so they share one layout (`NodeLayouts`).
 */
export class NodeLayout {
  readonly ids: readonly string[];
  private readonly index: Map<string, number>;

  constructor(ids: readonly string[]) {
    this.ids = new Set(ids).size === ids.length ? ids : [...new Set(ids)];
    this.index = new Map(this.ids.map((id, i) => [id, i]));
  }

  /** The node's index, or -1. */
  indexOf(nodeId: string): number {
    return this.index.get(nodeId) ?? -1;
  }

  get size(): number {
    return this.ids.length;
  }

  /** This layout with one more node at the end (a node the run's announcement did not name). */
  with(nodeId: string): NodeLayout {
    return new NodeLayout([...this.ids, nodeId]);
  }
}

/** Layouts by the node-id array that announced them (weakly: a dropped prepared workflow takes its layout along). */
export class NodeLayouts {
  private readonly byIds = new WeakMap<readonly string[], NodeLayout>();
  private readonly empty = new NodeLayout([]);

  of(ids: readonly string[] | undefined): NodeLayout {
    if (ids === undefined) return this.empty;
    let layout = this.byIds.get(ids);
    if (!layout) this.byIds.set(ids, (layout = new NodeLayout(ids)));
    return layout;
  }
}
