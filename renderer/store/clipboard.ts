import { DEFAULT_PORT } from '../../shared/workflow/engine-policy.schema';
import { MAX_IDENTIFIER_LENGTH } from '../../shared/workflow/identifier';
import type { GraphShape } from './graph-edits';
import { edgeIdOf, STUDIO_NODE_TYPE, type StudioEdge, type StudioNode } from './graph-model';

/** What Ctrl/Cmd+C keeps: the selected nodes and the edges between them (detached copies). */
export interface GraphClip {
  nodes: StudioNode[];
  edges: StudioEdge[];
}

/** Copies the selected nodes and their internal edges; null when nothing is selected. */
export function copySelection(graph: GraphShape): GraphClip | null {
  const nodes = graph.nodes.filter((n) => n.selected);
  if (nodes.length === 0) return null;
  const ids = new Set(nodes.map((n) => n.id));
  return {
    nodes: nodes.map((n): StudioNode => ({ id: n.id, type: STUDIO_NODE_TYPE, position: { ...n.position }, data: structuredClone(n.data) })),
    edges: graph.edges.filter((e) => ids.has(e.source) && ids.has(e.target)).map((e) => ({ ...e, data: { ...e.data }, selected: false })),
  };
}

/**
 * Instantiates a clip for pasting: every node gets a fresh id (`enrich` → `enrich_1`, `transform_1` →
 * `transform_2`) not among `existingIds`, positions move by `offset`, and internal edges follow the new ids.
 */
export function instantiateClip(clip: GraphClip, existingIds: Iterable<string>, offset: { x: number; y: number }): GraphClip {
  const taken = new Set(existingIds);
  const rename = new Map<string, string>();
  for (const node of clip.nodes) {
    const id = freshIdLike(node.id, taken);
    taken.add(id);
    rename.set(node.id, id);
  }
  const nodes = clip.nodes.map((n): StudioNode => ({
    id: rename.get(n.id)!,
    type: STUDIO_NODE_TYPE,
    position: { x: n.position.x + offset.x, y: n.position.y + offset.y },
    data: structuredClone(n.data),
  }));
  const edges = clip.edges.map((e): StudioEdge => {
    const source = rename.get(e.source)!;
    const target = rename.get(e.target)!;
    const port = e.sourceHandle ?? DEFAULT_PORT;
    return { id: edgeIdOf(source, port, target, e.data?.targetPort), source, sourceHandle: port, target, data: { ...e.data } };
  });
  return { nodes, edges };
}

/** The first free `<base>_<n>`, where base is the id without a trailing `_<digits>`. */
export function freshIdLike(id: string, taken: ReadonlySet<string>): string {
  const base = id.replace(/_\d+$/, '').slice(0, MAX_IDENTIFIER_LENGTH - 8) || 'node';
  for (let n = 1; ; n++) {
    const candidate = `${base}_${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}
