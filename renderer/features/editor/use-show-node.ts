import { useReactFlow } from '@xyflow/react';
import { useCallback } from 'react';
import { useStudio } from '../../store/studio-store';

/** Selects a node (on the canvas or in the shown diff) and centres the view on it: search, "Show node". */
export function useShowNode(): (nodeId: string) => void {
  const { setCenter, getInternalNode } = useReactFlow();
  return useCallback(
    (nodeId) => {
      const state = useStudio.getState();
      if (state.diffView) state.applyDiffNodeChanges(state.diffView.nodes.map((n) => ({ type: 'select', id: n.id, selected: n.id === nodeId })));
      else state.edit({ kind: 'select', nodeId });
      const node = (state.diffView?.nodes ?? state.nodes).find((n) => n.id === nodeId);
      if (!node) return;
      const internal = getInternalNode(nodeId);
      const width = internal?.measured.width ?? 180;
      const height = internal?.measured.height ?? 80;
      const at = internal?.internals.positionAbsolute ?? node.position;
      void setCenter(at.x + width / 2, at.y + height / 2, { zoom: 1.1, duration: 200 });
    },
    [setCenter, getInternalNode],
  );
}
