import { copySelection, instantiateClip } from '../../store/clipboard';
import { useStudio } from '../../store/studio-store';

type StudioStore = typeof useStudio;

/** How far each paste (and a duplicate) moves from the copied nodes. */
export const PASTE_OFFSET = 40;

/**
 * Editor commands shared by the keyboard and the canvas toolbar. Each is one graph edit, so one undo step.
 * The canvas is read-only while a version diff is shown: then they do nothing.
 */
export function copySelected(studio: StudioStore = useStudio): boolean {
  const s = studio.getState();
  if (s.diffView) return false;
  const clip = copySelection(s);
  if (clip) s.setClipboard(clip);
  return clip !== null;
}

export function pasteClipboard(studio: StudioStore = useStudio): boolean {
  const s = studio.getState();
  if (!s.clipboard || s.diffView) return false;
  const step = s.countPaste() * PASTE_OFFSET;
  const pasted = instantiateClip(
    s.clipboard,
    s.nodes.map((n) => n.id),
    { x: step, y: step },
  );
  s.edit({ kind: 'add-graph', nodes: pasted.nodes, edges: pasted.edges });
  return true;
}

export function duplicateSelected(studio: StudioStore = useStudio): boolean {
  const s = studio.getState();
  const clip = s.diffView ? null : copySelection(s);
  if (!clip) return false;
  const copy = instantiateClip(
    clip,
    s.nodes.map((n) => n.id),
    { x: PASTE_OFFSET, y: PASTE_OFFSET },
  );
  s.edit({ kind: 'add-graph', nodes: copy.nodes, edges: copy.edges });
  return true;
}

/** Removes the selected nodes (with their edges) and selected edges in one step. */
export function deleteSelected(studio: StudioStore = useStudio): boolean {
  const s = studio.getState();
  if (s.diffView) return false;
  const nodeIds = s.nodes.filter((n) => n.selected).map((n) => n.id);
  const edgeIds = s.edges.filter((e) => e.selected).map((e) => e.id);
  if (nodeIds.length === 0 && edgeIds.length === 0) return false;
  s.edit({ kind: 'remove', nodeIds, edgeIds });
  return true;
}

/** Lays the whole graph out left to right (dagre, loaded on first use); one undo step. */
export async function autoLayout(studio: StudioStore = useStudio): Promise<boolean> {
  if (studio.getState().diffView || studio.getState().nodes.length === 0) return false;
  const { layoutLeftToRight } = await import('./auto-layout');
  const s = studio.getState();
  if (s.diffView) return false;
  s.edit({ kind: 'move-nodes', positions: layoutLeftToRight(s.nodes, s.edges) });
  return true;
}
