/** Messages dropped by edge buffers (`yukta.edge.dropped`, ENG-01), by workflow and node, read when scraped. */
export class EdgeDrops {
  private readonly byNode = new Map<string, number>();

  count(workflowId: string, nodeId: string): void {
    const key = `${workflowId}/${nodeId}`;
    this.byNode.set(key, (this.byNode.get(key) ?? 0) + 1);
  }

  /** Counts keyed `workflowId/nodeId`. */
  get counts(): ReadonlyMap<string, number> {
    return this.byNode;
  }
}
