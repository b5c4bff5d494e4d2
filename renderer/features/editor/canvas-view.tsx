import { Background, BackgroundVariant, getViewportForBounds, useNodesInitialized, useReactFlow, useStore } from '@xyflow/react';
import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import type { StudioNode } from '../../store/graph-model';
import { useStudio } from '../../store/studio-store';

export const FIT_VIEW_OPTIONS = { padding: 0.25, maxZoom: 1.25, minZoom: 0.1 };
/**
 * A fit that keeps the graph clear of what floats over the canvas: the toolbar (top left), the zoom controls
 * (bottom left) and the minimap (bottom right). Used after auto-layout.
 */
export const CLEAR_FIT_OPTIONS = {
  padding: { top: '72px', left: '64px', right: '48px', bottom: '176px' },
  maxZoom: 1.25,
  minZoom: 0.1,
  duration: 200,
} as const;
/** Size of a node before React Flow has measured it (`.studio-node` width, a typical height). */
const ESTIMATED_NODE = { width: 180, height: 76 };

/**
 * Below this zoom nodes render compact (box, id, handles): their text is a few pixels tall there anyway,
 * and the details are most of the DOM and paint work of a 500-node canvas (bench/ui-canvas).
 */
export const LOW_DETAIL_ZOOM = 0.45;

export function useLowDetail(): boolean {
  return useStore((s) => s.transform[2] < LOW_DETAIL_ZOOM);
}

/**
 * When another workflow is opened, the canvas first sets a view that fits the nodes' saved positions
 * (estimated sizes), and only then hands the nodes to React Flow: a large graph is rendered once, already
 * at its fitted zoom (compact), instead of in full at the old zoom and again compact. Returns true while
 * that first frame is pending.
 */
export function usePrefit(nodes: readonly StudioNode[], canvas: RefObject<HTMLDivElement | null>): boolean {
  const loadCount = useStudio((s) => s.loadCount);
  const [prefitted, setPrefitted] = useState(0);
  const { setViewport } = useReactFlow();
  const pending = loadCount !== prefitted && nodes.length > 0;
  useLayoutEffect(() => {
    if (loadCount === prefitted) return;
    const rect = canvas.current?.getBoundingClientRect();
    // An empty workflow is "fitted" as it opens: its first drop must land where it was released, not be
    // taken for the load and fitted (zoomed and centred) under the pointer.
    if (pending && rect && rect.width > 0 && rect.height > 0) {
      const bounds = boundsOf(nodes);
      void setViewport(getViewportForBounds(bounds, rect.width, rect.height, FIT_VIEW_OPTIONS.minZoom, FIT_VIEW_OPTIONS.maxZoom, FIT_VIEW_OPTIONS.padding));
    }
    // Intended: the view must be set (layout effect, before paint) and only then the nodes handed over.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setPrefitted(loadCount);
  }, [pending, loadCount, prefitted, nodes, canvas, setViewport]);
  return pending;
}

function boundsOf(nodes: readonly StudioNode[]): { x: number; y: number; width: number; height: number } {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const n of nodes) {
    minX = Math.min(minX, n.position.x);
    minY = Math.min(minY, n.position.y);
    maxX = Math.max(maxX, n.position.x + (n.measured?.width ?? ESTIMATED_NODE.width));
    maxY = Math.max(maxY, n.position.y + (n.measured?.height ?? ESTIMATED_NODE.height));
  }
  return { x: minX, y: minY, width: maxX - minX, height: maxY - minY };
}

/**
 * Fits the view exactly once per opened workflow and once per shown diff, after React Flow has measured
 * the nodes (not on every drop, which would move the canvas under the pointer).
 */
export function useFitOnLoad(nodeCount: number): void {
  const loadCount = useStudio((s) => s.loadCount);
  const diffKey = useStudio((s) => (s.diffView ? `${s.diffView.from}>${s.diffView.to}` : 'edit'));
  const { fitView } = useReactFlow();
  const measured = useNodesInitialized();
  const fitted = useRef('');
  useEffect(() => {
    const key = `${loadCount}|${diffKey}`;
    if (loadCount === 0 && diffKey === 'edit') return;
    if (fitted.current === key || (nodeCount > 0 && !measured)) return;
    fitted.current = key;
    // React Flow queues a fit asked for with no nodes until nodes arrive: it would fit the first drop of an
    // empty workflow (zoom in and centre it under the pointer). An empty workflow needs no fit.
    if (nodeCount > 0) void fitView(FIT_VIEW_OPTIONS);
  }, [loadCount, diffKey, measured, nodeCount, fitView]);
}

/** Below this zoom the dot grid is not drawn: its dots get denser as the canvas zooms out (tens of thousands
 * of dots repainted on every pan frame at the 500-node fit view). */
const GRID_MIN_ZOOM = 0.5;

export function ZoomAwareBackground() {
  const showGrid = useStore((s) => s.transform[2] >= GRID_MIN_ZOOM);
  return showGrid ? <Background variant={BackgroundVariant.Dots} gap={20} size={1} /> : null;
}

const placed = new WeakMap<StudioNode, StudioNode>();

/**
 * The node as handed to React Flow, placed with left/top instead of React Flow's per-node
 * `transform: translate()`: 500 transformed nodes are 500 transform nodes the compositor re-layerizes on
 * every pan frame (bench/ui-canvas: ~25 fps → ~55 fps in Chromium's software compositor). Cached per node
 * object, so unchanged nodes keep their identity and React Flow its measurements.
 */
export function placeByLeftTop(node: StudioNode): StudioNode {
  let shown = placed.get(node);
  if (!shown) {
    shown = { ...node, style: { ...node.style, transform: 'none', left: node.position.x, top: node.position.y } };
    placed.set(node, shown);
  }
  return shown;
}

/**
 * After a workflow is opened, its edges are handed to React Flow only after the measured nodes have been
 * painted: the nodes show first (2000 edges are most of the first render of a large graph), the edges a
 * frame later. Later edits never hide the edges (a dropped node is unmeasured for a frame too).
 */
export function useEdgesAfterFirstPaint(nodeCount: number): boolean {
  const loadCount = useStudio((s) => s.loadCount);
  const measured = useNodesInitialized();
  const [ready, setReady] = useState(loadCount);
  const waiting = ready !== loadCount && nodeCount > 0;
  useEffect(() => {
    if (!waiting) return;
    if (!measured) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    // The frame after the nodes' paint: a task queued from requestAnimationFrame runs after that paint.
    const frame = requestAnimationFrame(() => (timer = setTimeout(() => setReady(loadCount), 0)));
    return () => {
      cancelAnimationFrame(frame);
      if (timer !== undefined) clearTimeout(timer);
    };
  }, [waiting, measured, loadCount]);
  return !waiting;
}
