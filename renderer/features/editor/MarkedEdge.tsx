import { BaseEdge, EdgeLabelRenderer, getBezierPath, type EdgeProps } from '@xyflow/react';
import { Minus, Plus, TriangleAlert } from 'lucide-react';
import { memo } from 'react';
import type { StudioEdge } from '../../store/graph-model';

/** Edge type of edges that carry a mark: a validation problem or a diff mark. Plain edges stay default. */
export const MARKED_EDGE_TYPE = 'marked';

/**
 * An edge with a badge at its middle: a problem badge whose hover shows the DEF-02 message, or a diff
 * badge (+ added, − removed), so neither relies on colour alone.
 */
function MarkedEdgeView({ id, sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition, markerEnd, style, data }: EdgeProps<StudioEdge>) {
  const [path, labelX, labelY] = getBezierPath({ sourceX, sourceY, targetX, targetY, sourcePosition, targetPosition });
  const problem = data?.problem;
  const diff = data?.diff;
  return (
    <>
      <BaseEdge id={id} path={path} markerEnd={markerEnd} style={style} />
      <EdgeLabelRenderer>
        <div className="edge-badges nodrag nopan" style={{ transform: `translate(-50%, -50%) translate(${labelX}px, ${labelY}px)` }}>
          {problem && (
            <span className="edge-problem" title={problem} role="img" aria-label={`Problem: ${problem}`} data-testid={`edge-problem-${id}`}>
              <TriangleAlert size={11} aria-hidden="true" />
            </span>
          )}
          {(diff === 'added' || diff === 'removed') && (
            <span className={`edge-diff diff-${diff}`} title={`Edge ${diff}`} data-testid={`edge-diff-${id}`} data-diff={diff}>
              {diff === 'added' ? <Plus size={10} aria-hidden="true" /> : <Minus size={10} aria-hidden="true" />}
              {diff}
            </span>
          )}
        </div>
      </EdgeLabelRenderer>
    </>
  );
}

export const MarkedEdge = memo(MarkedEdgeView);
