/** The bench workflow of bench/ui-canvas: at the DEF-02 caps (500 nodes, 2000 edges), a valid DAG. */
/** 20 layers of 25 nodes (layer 0: triggers); each node takes 4 parents from the layer before, 100 take a 5th: 2000 edges. */
export function bigWorkflow(workflowId = 'bench-500'): { workflowId: string; nodes: unknown[]; edges: unknown[] } {
  const LAYERS = 20;
  const WIDTH = 25;
  const id = (layer: number, row: number) => `n${layer}_${row}`;
  const nodes = [];
  const edges = [];
  for (let layer = 0; layer < LAYERS; layer++) {
    for (let row = 0; row < WIDTH; row++) {
      nodes.push({
        nodeId: id(layer, row),
        type: layer === 0 ? 'API_TRIGGER' : 'TRANSFORM',
        config: layer === 0 ? {} : { set: {}, mode: 'merge' },
        position: { x: layer * 260, y: row * 110 },
      });
      if (layer === 0) continue;
      const parents = layer * WIDTH + row - WIDTH < 100 ? 5 : 4;
      for (let k = 0; k < parents; k++) edges.push({ source: id(layer - 1, (row + k * 6) % WIDTH), target: id(layer, row), sourcePort: 'out' });
    }
  }
  return { workflowId, nodes, edges };
}
