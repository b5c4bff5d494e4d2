import { Controls, MarkerType, MiniMap, Panel, ReactFlow, SelectionMode } from '@xyflow/react';
import { BookOpen, MousePointerClick } from 'lucide-react';
import { useCallback, useEffect, useMemo, useRef, type ReactNode, type RefObject } from 'react';
import { STATUS_STYLES } from '../../components/status';
import type { StudioEdge, StudioNode } from '../../store/graph-model';
import { useLive } from '../../store/live-store';
import { useProblems } from '../../store/problems-store';
import { useStudio } from '../../store/studio-store';
import { effectiveTheme, useTheme } from '../theme/theme-store';
import { StatusIconSprite } from './status-icon-sprite';
import { placeByLeftTop, useEdgesAfterFirstPaint, useFitOnLoad, useLowDetail, usePrefit, ZoomAwareBackground } from './canvas-view';
import { markEdgeProblems } from './edge-problems';
import { MarkedEdge } from './MarkedEdge';
import { StudioNodeComponent } from './StudioNode';
import { useGraphEditHandlers, useMovingMark, usePaletteDrop } from './use-canvas-handlers';

const NODE_TYPES = { studio: StudioNodeComponent };
const EDGE_TYPES = { marked: MarkedEdge };
const DEFAULT_EDGE_OPTIONS = { markerEnd: { type: MarkerType.ArrowClosed, width: 18, height: 18 } };
/** Shift-click adds to the selection (Ctrl/Cmd too, React Flow's default). */
const MULTI_SELECT_KEYS = ['Shift', 'Meta', 'Control'];
/** In box-select mode the left button draws the box; the middle and right buttons still pan. */
const PAN_BUTTONS_IN_BOX_MODE = [1, 2];
const NOOP = () => undefined;
const NO_NODES: StudioNode[] = [];
const NO_EDGES: StudioEdge[] = [];

/**
 * What React Flow is given: the graph with its edges' problems marked, or the version diff shown instead
 * (read-only); the graph's nodes are held back while the first fit is computed, its edges until after the first paint.
 */
function useShownGraph(canvasRef: RefObject<HTMLDivElement | null>) {
  const nodes = useStudio((s) => s.nodes);
  const edges = useStudio((s) => s.edges);
  const diffView = useStudio((s) => s.diffView);
  const issues = useProblems((s) => s.issues);
  const shownEdges = useMemo(() => markEdgeProblems(edges, issues), [edges, issues]);
  const shownNodes = useMemo(() => (diffView?.nodes ?? nodes).map(placeByLeftTop), [diffView, nodes]);
  const prefitting = usePrefit(nodes, canvasRef);
  const edgesReady = useEdgesAfterFirstPaint(nodes.length);
  useFitOnLoad(nodes.length);
  return {
    empty: nodes.length === 0,
    readOnly: diffView !== null,
    shownCount: shownNodes.length,
    flowNodes: prefitting && !diffView ? NO_NODES : shownNodes,
    flowEdges: diffView?.edges ?? (prefitting || !edgesReady ? NO_EDGES : shownEdges),
  };
}

/** The graph's edit handlers; while a diff is shown only its nodes' sizes and selection change, nothing is edited. */
function useCanvasEditing(readOnly: boolean) {
  const applyDiffNodeChanges = useStudio((s) => s.applyDiffNodeChanges);
  const { onNodesChange, onEdgesChange, onConnect } = useGraphEditHandlers();
  if (readOnly) return { onNodesChange: applyDiffNodeChanges, onEdgesChange: NOOP, onConnect: NOOP };
  return { onNodesChange, onEdgesChange, onConnect };
}

/**
 * The React Flow canvas: drop target of the palette, edits as data into the graph slice. While a version
 * diff is shown it draws that diff instead, read-only. Delete is handled by the studio's shortcuts (one
 * undo step for nodes and edges together), so React Flow's own delete key is off.
 */
export function EditorCanvas({ toolbar }: { toolbar?: ReactNode }) {
  const boxSelect = useStudio((s) => s.boxSelect);
  const { onDragOver, onDrop } = usePaletteDrop();
  const canvasRef = useRef<HTMLDivElement>(null);
  const { empty, readOnly, shownCount, flowNodes, flowEdges } = useShownGraph(canvasRef);
  const { onNodesChange, onEdgesChange, onConnect } = useCanvasEditing(readOnly);
  const colorMode = useTheme((s) => effectiveTheme(s.choice, s.system));
  const lowDetail = useLowDetail();
  // A large graph seen up close draws only what is on screen: its nodes then carry their details, and a
  // live run updating hundreds of them off screen cost most of each frame (bench/ui-live --zoom-in). Zoomed
  // out (compact nodes, the whole graph in view) everything stays drawn, so panning moves pixels only.
  const cullOffscreen = !lowDetail && shownCount > CULL_ABOVE_NODES;
  const { onMoveStart, onMoveEnd } = useMovingMark(canvasRef);
  return (
    <div
      ref={canvasRef}
      className="canvas"
      data-testid="canvas"
      data-mode={readOnly ? 'diff' : 'edit'}
      data-detail={lowDetail ? 'low' : 'full'}
      data-box-select={boxSelect}
      onDragOver={onDragOver}
      onDrop={onDrop}
    >
      <ReactFlow<StudioNode, StudioEdge>
        nodes={flowNodes}
        edges={flowEdges}
        nodeTypes={NODE_TYPES}
        edgeTypes={EDGE_TYPES}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onConnect={onConnect}
        nodesDraggable={!readOnly}
        nodesConnectable={!readOnly}
        defaultEdgeOptions={DEFAULT_EDGE_OPTIONS}
        deleteKeyCode={null}
        multiSelectionKeyCode={MULTI_SELECT_KEYS}
        selectionOnDrag={boxSelect}
        selectionMode={SelectionMode.Partial}
        panOnDrag={boxSelect ? PAN_BUTTONS_IN_BOX_MODE : true}
        colorMode={colorMode}
        minZoom={0.1}
        snapToGrid
        snapGrid={[10, 10]}
        onlyRenderVisibleElements={cullOffscreen}
        onMoveStart={onMoveStart}
        onMoveEnd={onMoveEnd}
      >
        <ZoomAwareBackground />
        <StatusMiniMap />
        <StatusIconSprite />
        <ManyRunningMark canvas={canvasRef} />
        <Controls />
        {toolbar && <Panel position="top-left">{toolbar}</Panel>}
      </ReactFlow>
      {empty && !readOnly && <EmptyCanvas />}
    </div>
  );
}

/** The empty canvas's invitation: drag a trigger, or open an example. */
function EmptyCanvas() {
  return (
    <div className="canvas-empty" data-testid="canvas-empty">
      <MousePointerClick size={28} aria-hidden="true" />
      <p className="canvas-empty-title">Drag a trigger from the palette</p>
      <p>Start with an API trigger, add processors, end in a terminal, then connect them handle to handle.</p>
      <button type="button" className="button primary" onClick={() => useStudio.getState().openDialog('examples')} data-testid="open-example">
        <BookOpen size={15} aria-hidden="true" /> Open an example
      </button>
    </div>
  );
}

/** Graphs with more nodes than this draw only the nodes and edges on screen when zoomed in. */
export const CULL_ABOVE_NODES = 150;

/** More nodes than this running at once: their rings stay lit instead of pulsing (UI.md's pulse is a cue for a
 * few nodes; hundreds of running animations cost most of each frame, bench/ui-live). */
export const PULSE_LIMIT = 24;

/** Marks the canvas (`data-many-running`) while more than PULSE_LIMIT nodes of the shown run are RUNNING. */
function ManyRunningMark({ canvas }: { canvas: RefObject<HTMLDivElement | null> }) {
  const many = useLive((s) => {
    let running = 0;
    for (const id in s.statuses) if (s.statuses[id] === 'RUNNING' && ++running > PULSE_LIMIT) return true;
    return false;
  });
  useEffect(() => {
    if (many) canvas.current?.setAttribute('data-many-running', 'true');
    else canvas.current?.removeAttribute('data-many-running');
  }, [many, canvas]);
  return null;
}

/** The minimap coloured by the shown run's statuses (re-rendered when a status changes, not for counts). */
function StatusMiniMap() {
  const statuses = useLive((s) => s.statuses);
  const nodeColor = useCallback(
    (node: StudioNode) => {
      const status = statuses[node.id];
      return status ? STATUS_STYLES[status].color : '#9aa3ad';
    },
    [statuses],
  );
  return <MiniMap<StudioNode> pannable zoomable nodeColor={nodeColor} />;
}
