import type { Connection, EdgeChange, NodeChange } from '@xyflow/react';
import { useCallback, type DragEvent, type RefObject } from 'react';
import { DEFAULT_PORT } from '../../../shared/workflow/engine-policy.schema';
import type { StudioEdge, StudioNode } from '../../store/graph-model';
import { useStudio } from '../../store/studio-store';
import { isPaletteDrag, readDroppedType } from './drag-data';
import { useAddNode } from './use-add-node';

/** React Flow's changes and connections, as edits (data) into the graph slice. */
export function useGraphEditHandlers() {
  const edit = useStudio((s) => s.edit);
  const onNodesChange = useCallback((changes: NodeChange<StudioNode>[]) => edit({ kind: 'flow-nodes', changes }), [edit]);
  const onEdgesChange = useCallback((changes: EdgeChange<StudioEdge>[]) => edit({ kind: 'flow-edges', changes }), [edit]);
  const onConnect = useCallback(
    (c: Connection) => {
      if (c.source && c.target) edit({ kind: 'connect', source: c.source, sourcePort: c.sourceHandle ?? DEFAULT_PORT, target: c.target });
    },
    [edit],
  );
  return { onNodesChange, onEdgesChange, onConnect };
}

/** The canvas as the palette's drop target (not while a diff is shown). */
export function usePaletteDrop() {
  const addNode = useAddNode();
  const onDragOver = useCallback((e: DragEvent) => {
    if (!isPaletteDrag(e.dataTransfer) || useStudio.getState().diffView) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = e.dataTransfer.effectAllowed === 'move' ? 'move' : 'copy';
  }, []);
  const onDrop = useCallback(
    (e: DragEvent) => {
      const type = readDroppedType(e.dataTransfer);
      if (!type || useStudio.getState().diffView) return;
      e.preventDefault();
      addNode(type, { x: e.clientX, y: e.clientY });
    },
    [addNode],
  );
  return { onDragOver, onDrop };
}

/**
 * While the view moves, the viewport is its own compositor layer: a pan then moves pixels instead of
 * repainting 500 nodes and 2000 edges per frame. Only while moving, so text is re-rastered sharp after a zoom.
 */
export function useMovingMark(canvasRef: RefObject<HTMLDivElement | null>) {
  const onMoveStart = useCallback(() => canvasRef.current?.setAttribute('data-moving', 'true'), [canvasRef]);
  const onMoveEnd = useCallback(() => canvasRef.current?.removeAttribute('data-moving'), [canvasRef]);
  return { onMoveStart, onMoveEnd };
}
