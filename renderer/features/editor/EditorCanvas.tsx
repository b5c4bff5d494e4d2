import { Background, BackgroundVariant, Controls, MarkerType, MiniMap, ReactFlow, useNodesInitialized, useReactFlow, type Connection, type EdgeChange, type NodeChange } from '@xyflow/react';
import { MousePointerClick } from 'lucide-react';
import { useCallback, useEffect, useMemo, useRef, type DragEvent } from 'react';
import { DEFAULT_PORT } from '../../../shared/workflow/engine-policy.schema';
import { STATUS_STYLES } from '../../components/status';
import type { StudioEdge, StudioNode } from '../../store/graph-model';
import { useLive } from '../../store/live-store';
import { useProblems } from '../../store/problems-store';
import { useStudio } from '../../store/studio-store';
import { isPaletteDrag, readDroppedType } from './drag-data';
import { markEdgeProblems } from './edge-problems';
import { StudioNodeComponent } from './StudioNode';
import { useAddNode } from './use-add-node';

const NODE_TYPES = { studio: StudioNodeComponent };
const DEFAULT_EDGE_OPTIONS = { markerEnd: { type: MarkerType.ArrowClosed, width: 18, height: 18 } };
const DELETE_KEYS = ['Delete', 'Backspace'];
const FIT_VIEW_OPTIONS = { padding: 0.25, maxZoom: 1.25 };

/** The React Flow canvas: drop target of the palette, edits as data into the graph slice. */
export function EditorCanvas() {
  const nodes = useStudio((s) => s.nodes);
  const edges = useStudio((s) => s.edges);
  const issues = useProblems((s) => s.issues);
  const shownEdges = useMemo(() => markEdgeProblems(edges, issues), [edges, issues]);
  const loadCount = useStudio((s) => s.loadCount);
  const edit = useStudio((s) => s.edit);
  const addNode = useAddNode();
  const { fitView } = useReactFlow();
  const measured = useNodesInitialized();
  const fittedLoad = useRef(0);

  const onNodesChange = useCallback((changes: NodeChange<StudioNode>[]) => edit({ kind: 'flow-nodes', changes }), [edit]);
  const onEdgesChange = useCallback((changes: EdgeChange<StudioEdge>[]) => edit({ kind: 'flow-edges', changes }), [edit]);
  const onConnect = useCallback(
    (c: Connection) => {
      if (c.source && c.target) edit({ kind: 'connect', source: c.source, sourcePort: c.sourceHandle ?? DEFAULT_PORT, target: c.target });
    },
    [edit],
  );

  const onDragOver = useCallback((e: DragEvent) => {
    if (!isPaletteDrag(e.dataTransfer)) return;
    e.preventDefault();
    e.dataTransfer.dropEffect = e.dataTransfer.effectAllowed === 'move' ? 'move' : 'copy';
  }, []);
  const onDrop = useCallback(
    (e: DragEvent) => {
      const type = readDroppedType(e.dataTransfer);
      if (!type) return;
      e.preventDefault();
      addNode(type, { x: e.clientX, y: e.clientY });
    },
    [addNode],
  );

  // Fit the view once per opened workflow (not on every drop, which would move the canvas under the pointer),
  // and only once React Flow has measured the nodes: before that their sizes are unknown and the fit is off.
  useEffect(() => {
    if (loadCount === 0 || fittedLoad.current === loadCount || (nodes.length > 0 && !measured)) return;
    fittedLoad.current = loadCount;
    void fitView(FIT_VIEW_OPTIONS);
  }, [loadCount, measured, nodes.length, fitView]);

  return (
    <div className="canvas" data-testid="canvas" onDragOver={onDragOver} onDrop={onDrop}>
      <ReactFlow<StudioNode, StudioEdge>
        nodes={nodes}
        edges={shownEdges}
        nodeTypes={NODE_TYPES}
        onNodesChange={onNodesChange}
        onEdgesChange={onEdgesChange}
        onConnect={onConnect}
        defaultEdgeOptions={DEFAULT_EDGE_OPTIONS}
        deleteKeyCode={DELETE_KEYS}
        colorMode="system"
        minZoom={0.2}
        snapToGrid
        snapGrid={[10, 10]}
      >
        <Background variant={BackgroundVariant.Dots} gap={20} size={1} />
        <StatusMiniMap />
        <Controls />
      </ReactFlow>
      {nodes.length === 0 && (
        <div className="canvas-empty" data-testid="canvas-empty">
          <MousePointerClick size={28} aria-hidden="true" />
          <p className="canvas-empty-title">Drag a trigger from the palette</p>
          <p>Start with an API trigger, add processors, end in a terminal, then connect them handle to handle.</p>
        </div>
      )}
    </div>
  );
}

/** The minimap coloured by the shown run's statuses (re-rendered at most once per applied frame). */
function StatusMiniMap() {
  const live = useLive((s) => s.nodes);
  const nodeColor = useCallback((node: StudioNode) => {
    const status = live[node.id]?.status;
    return status ? STATUS_STYLES[status].color : '#9aa3ad';
  }, [live]);
  return <MiniMap<StudioNode> pannable zoomable nodeColor={nodeColor} />;
}
