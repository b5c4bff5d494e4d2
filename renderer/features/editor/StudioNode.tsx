import { Handle, Position, useUpdateNodeInternals, type NodeProps } from '@xyflow/react';
import { CircleMinus, CirclePlus, PencilLine, TriangleAlert, type LucideIcon } from 'lucide-react';
import { memo, useEffect, useMemo, useRef } from 'react';
import { DEFAULT_PORT, ERROR_PORT } from '../../../shared/workflow/engine-policy.schema';
import type { Status } from '../../../shared/status/status';
import { outputPorts, type NodeTypeInfo } from '../../../shared/workflow/node-type';
import type { ValidationIssue } from '../../../shared/workflow/validation-issue';
import { HOLD_STYLES, NO_STATUS, STATUS_STYLES, statusClassName, type HoldKind, type StatusStyle } from '../../components/status';
import type { DiffMark, StudioNode, StudioNodeData } from '../../store/graph-model';
import { useLive } from '../../store/live-store';
import { useProblems } from '../../store/problems-store';
import { useStudio } from '../../store/studio-store';
import { useLowDetail } from './canvas-view';
import { NodeTypeIcon } from './node-icons';
import { BreakpointDot, NodeRunFigures } from './node-run-marks';
import { NodeApprovalButtons, NodeErrorStrip, useWaitingCount, useWaitingSignal } from './node-run-state';
import { renderProbe } from './render-probe';
import { SpriteStatusIcon } from './status-icon-sprite';

/** Output ports a node shows: its type's, those its config names (ROUTER), and `error` when it routes errors. */
export function outputPortsOf(info: NodeTypeInfo | undefined, data: StudioNodeData): string[] {
  return outputPorts(info ?? { kind: 'processor', outputs: [DEFAULT_PORT] }, data.config);
}

/**
 * A node on the canvas. Memoized, and subscribed narrowly: its own live status and held flag (not its
 * counts: those re-render only the small figures line, `NodeRunFigures`), its own problems and its type — so
 * an update of another node does not re-render it, and a count update re-renders only the figures. Zoomed
 * far out it is compact: box, id, problem count and handles (the status stays as colour and in the id's
 * hover; the figures are not drawn, so count updates render nothing there).
 */
function StudioNodeView({ id, data, selected }: NodeProps<StudioNode>) {
  renderProbe?.(id);
  const info = useStudio((s) => s.nodeTypesByType[data.type]);
  const status = useLive((s) => s.nodes[id]?.status);
  const held = useLive((s) => Boolean(s.nodes[id]?.held));
  const waiting = useWaitingCount(id);
  const problems = useProblems((s) => s.byNode[id]);
  const updateNodeInternals = useUpdateNodeInternals();
  const compact = useLowDetail();

  const outputs = useMemo(() => outputPortsOf(info, data), [info, data]);
  const outputsKey = outputs.join('\u0000');
  const hasTarget = info?.kind !== 'trigger';
  usePortsChanged(id, `${outputsKey}|${hasTarget}`, updateNodeInternals);

  // Held or waiting is its own state, never "Running" (UI.md).
  const hold: HoldKind | null = status === 'RUNNING' || status === 'PENDING' ? (held ? 'held' : waiting > 0 ? 'waiting' : null) : null;
  const look = hold ? HOLD_STYLES[hold] : status ? STATUS_STYLES[status] : NO_STATUS;
  const kind = info?.kind ?? 'unknown';

  return (
    <div
      className={`studio-node${compact ? ' compact' : ''} kind-${kind} ${status ? statusClassName(status) : 'status-none'}${selected ? ' is-selected' : ''}${problems?.length ? ' has-problems' : ''}${data.diff ? ` diff-${data.diff}` : ''}${held ? ' is-held' : ''}${hold === 'waiting' ? ' is-waiting' : ''}`}
      style={{ ['--status-color' as string]: look.color }}
      data-testid={`node-${id}`}
      data-status={status ?? 'NONE'}
      data-kind={kind}
      data-diff={data.diff}
      data-held={held ? 'true' : undefined}
      data-hold={hold ?? undefined}
    >
      {!data.diff && <BreakpointDot nodeId={id} />}
      {data.diff && data.diff !== 'unchanged' && <DiffBadge mark={data.diff} nodeId={id} />}
      {hasTarget && <Handle type="target" position={Position.Left} className="studio-handle" data-testid={`handle-${id}-target`} />}
      <div className="studio-node-header">
        {!compact && <NodeTypeIcon type={data.type} kind={info?.kind} size={16} className="studio-node-type-icon" />}
        <span className="studio-node-id" title={compact ? `${id} · ${look.label}` : id}>
          {id}
        </span>
        {problems && problems.length > 0 && <ProblemBadge id={id} problems={problems} compact={compact} />}
      </div>
      {!compact && (
        <NodeDetails id={id} title={info?.title ?? data.type} kind={kind} label={data.label} status={status} look={look} hold={hold} waiting={waiting} />
      )}
      <OutputHandles id={id} outputs={outputs} compact={compact} />
    </div>
  );
}

/** The node's problem count (a warning unless one is an error), the problems in its hover and label. */
function ProblemBadge({ id, problems, compact }: { id: string; problems: readonly ValidationIssue[]; compact: boolean }) {
  const problemText = problems.map((p) => `${p.code}: ${p.message}`).join('\n');
  const errorCount = problems.filter((p) => p.severity === 'error').length;
  return (
    <span
      className={`node-problem${errorCount ? '' : ' is-warning'}`}
      data-testid={`node-problem-${id}`}
      title={problemText}
      role="img"
      aria-label={`${problems.length} problem(s): ${problemText}`}
    >
      {!compact && <TriangleAlert size={12} aria-hidden="true" />}
      {problems.length}
    </span>
  );
}

/** One source handle per output port, spread down the right edge (named when there are several). */
function OutputHandles({ id, outputs, compact }: { id: string; outputs: readonly string[]; compact: boolean }) {
  return (
    <>
      {outputs.map((port, i) => (
        <Handle
          key={port}
          type="source"
          id={port}
          position={Position.Right}
          className={`studio-handle${port === ERROR_PORT ? ' is-error-port' : ''}`}
          style={{ top: `${((i + 1) * 100) / (outputs.length + 1)}%` }}
          data-testid={`handle-${id}-source-${port}`}
          title={`output "${port}"`}
        >
          {outputs.length > 1 && !compact && <span className="studio-port-label">{port}</span>}
        </Handle>
      ))}
    </>
  );
}

/** Type, kind, label and the run status of a node: drawn when the canvas is not zoomed far out. */
function NodeDetails({
  id,
  title,
  kind,
  label,
  status,
  look,
  hold,
  waiting,
}: {
  id: string;
  title: string;
  kind: string;
  label: string | undefined;
  status: Status | undefined;
  look: StatusStyle;
  hold: HoldKind | null;
  waiting: number;
}) {
  return (
    <>
      <div className="studio-node-meta">
        <span>{title}</span>
        <span className="studio-node-kind">{kind}</span>
      </div>
      {label && <div className="studio-node-label">{label}</div>}
      <div className="studio-node-status" data-testid={`node-status-${id}`}>
        {hold ? <look.icon size={13} aria-hidden="true" className="status-icon" /> : <SpriteStatusIcon status={status} size={13} />}
        <span className="status-label">{look.label}</span>
        {hold === 'waiting' && <WaitingDetail id={id} count={waiting} />}
        {status !== undefined && hold !== 'waiting' && <NodeRunFigures id={id} />}
      </div>
      {hold === 'waiting' && <NodeApprovalButtons id={id} />}
      {status !== undefined && <NodeErrorStrip id={id} />}
    </>
  );
}

function WaitingDetail({ id, count }: { id: string; count: number }) {
  const signal = useWaitingSignal(id);
  return (
    <span className="node-waiting-detail" data-testid={`node-waiting-${id}`}>
      {signal}, {count} waiting
    </span>
  );
}

/**
 * Tells React Flow to re-measure the handles when a node's ports change (a route added, onError ROUTE).
 * Not on mount: React Flow measures new nodes itself, in one batch, while a call per node would be one
 * store update per node (500 nodes: seconds of work on load, bench/ui-canvas).
 */
function usePortsChanged(id: string, portsKey: string, updateNodeInternals: (id: string) => void): void {
  const measured = useRef(portsKey);
  useEffect(() => {
    if (measured.current === portsKey) return;
    measured.current = portsKey;
    updateNodeInternals(id);
  }, [id, portsKey, updateNodeInternals]);
}

const DIFF_BADGES: { readonly [K in Exclude<DiffMark, 'unchanged'>]: { label: string; icon: LucideIcon } } = {
  added: { label: 'Added', icon: CirclePlus },
  removed: { label: 'Removed', icon: CircleMinus },
  changed: { label: 'Changed', icon: PencilLine },
};

/** The diff mark as icon and text (never colour alone). */
function DiffBadge({ mark, nodeId }: { mark: Exclude<DiffMark, 'unchanged'>; nodeId: string }) {
  const { label, icon: Icon } = DIFF_BADGES[mark];
  return (
    <span className={`node-diff-badge diff-${mark}`} data-testid={`node-diff-${nodeId}`}>
      <Icon size={11} aria-hidden="true" />
      {label}
    </span>
  );
}

/**
 * Re-render only for what the node draws: React Flow also passes measured sizes and absolute positions,
 * which change for every node once they are measured (500 needless re-renders on load) and on every drag
 * frame.
 */
function sameView(a: NodeProps<StudioNode>, b: NodeProps<StudioNode>): boolean {
  return a.id === b.id && a.data === b.data && a.selected === b.selected;
}

export const StudioNodeComponent = memo(StudioNodeView, sameView);
