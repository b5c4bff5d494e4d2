import { useReactFlow } from '@xyflow/react';
import { useCallback } from 'react';
import { nextNodeId } from '../../store/graph-edits';
import { STUDIO_NODE_TYPE, type StudioNode } from '../../store/graph-model';
import { useStudio } from '../../store/studio-store';

/** Half a node's rendered size, so a dropped node is centred under the pointer. */
const NODE_HALF = { x: 90, y: 36 };

/**
 * Adds a node of a type at a screen point (a drop) or at the centre of the canvas (keyboard).
 * The node gets a unique id (`transform_2`) and its type's default config.
 */
export function useAddNode(): (type: string, screenPoint?: { x: number; y: number }) => string | null {
  const { screenToFlowPosition } = useReactFlow();
  return useCallback(
    (type, screenPoint) => {
      const state = useStudio.getState();
      const info = state.nodeTypesByType[type];
      if (!info) return null;
      const point = screenPoint ?? canvasCentre();
      const at = screenToFlowPosition(point);
      const id = nextNodeId(
        type,
        state.nodes.map((n) => n.id),
      );
      const node: StudioNode = {
        id,
        type: STUDIO_NODE_TYPE,
        position: { x: Math.round(at.x - NODE_HALF.x), y: Math.round(at.y - NODE_HALF.y) },
        data: { type, config: structuredClone(info.defaultConfig) },
      };
      state.edit({ kind: 'add-node', node });
      return id;
    },
    [screenToFlowPosition],
  );
}

function canvasCentre(): { x: number; y: number } {
  const rect = document.querySelector('[data-testid="canvas"]')?.getBoundingClientRect();
  return rect ? { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 } : { x: 300, y: 200 };
}
