import * as Tabs from '@radix-ui/react-tabs';
import { MousePointer2 } from 'lucide-react';
import { lazy, Suspense, useState, type KeyboardEvent } from 'react';
import { identifierProblem } from '../../../shared/workflow/identifier';
import { selectedNodeId } from '../../store/graph-slice';
import { useProblems } from '../../store/problems-store';
import { useStudio } from '../../store/studio-store';
import type { InspectorTab } from '../../store/ui-slice';
import { ConfigForm } from './config-form/ConfigForm';
import { RawConfigEditor } from './config-form/RawConfigEditor';
import { BreakpointEditor } from '../debugger/BreakpointEditor';
import { NodeRunSection } from '../debugger/NodeRunSection';
import { NodeApprovalBlock } from '../inbox/NodeApprovalBlock';
import { NodeErrorBlock } from '../runs/NodeErrorBlock';
import { DiffInspector } from '../versions/DiffInspector';
import { useActions } from '../workflow/actions-context';
import { NodeTypeIcon } from './node-icons';

// cronstrue and croner are only needed once a Cron trigger is selected.
const CronPreview = lazy(() => import('../scheduler/CronPreview'));

/**
 * Right panel: the selected node's id, label, config (generated form or JSON) with its engine policy, its
 * breakpoint, its problems and, in a run, its status, valve, held message and recorded messages.
 */
export function Inspector() {
  const nodeId = useStudio(selectedNodeId);
  const comparing = useStudio((s) => s.diffView !== null);
  if (comparing) {
    return (
      <aside className="panel-body" data-testid="inspector" aria-label="Inspector">
        <DiffInspector />
      </aside>
    );
  }
  return (
    <aside className="panel-body" data-testid="inspector" aria-label="Inspector">
      {nodeId === null ? (
        <div className="empty-hint">
          <MousePointer2 size={18} aria-hidden="true" />
          <p>Select a node to edit its id, label and config. Delete removes the selection.</p>
        </div>
      ) : (
        // Keyed by id: a rename or a new selection starts with fresh drafts.
        <NodeInspector key={nodeId} nodeId={nodeId} />
      )}
    </aside>
  );
}

function NodeInspector({ nodeId }: { nodeId: string }) {
  const data = useStudio((s) => s.nodes.find((n) => n.id === nodeId)?.data);
  const info = useStudio((s) => (data ? s.nodeTypesByType[data.type] : undefined));
  const edit = useStudio((s) => s.edit);
  const problems = useProblems((s) => s.byNode[nodeId]);
  const actions = useActions();
  const [idDraft, setIdDraft] = useState(nodeId);
  const [idError, setIdError] = useState<string | null>(null);
  const tab = useStudio((s) => s.inspectorTab);
  const setTab = useStudio((s) => s.setInspectorTab);

  if (!data) return null;

  const commitId = () => {
    const next = idDraft;
    if (next === nodeId) return setIdError(null);
    const problem = identifierProblem(next);
    if (problem) return setIdError(`Node id ${problem}.`);
    if (useStudio.getState().nodes.some((n) => n.id === next)) return setIdError(`Another node is already called "${next}".`);
    setIdError(null);
    edit({ kind: 'rename-node', from: nodeId, to: next });
  };
  const onIdKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') commitId();
    if (e.key === 'Escape') {
      setIdDraft(nodeId);
      setIdError(null);
    }
  };
  return (
    <div className="inspector-body">
      <NodeErrorBlock nodeId={nodeId} />
      <NodeApprovalBlock nodeId={nodeId} />
      <div className="inspector-type">
        <NodeTypeIcon type={data.type} kind={info?.kind} size={16} />
        <div>
          <div className="inspector-type-title">{info?.title ?? data.type}</div>
          <div className="inspector-type-description">{info?.description ?? `Unknown node type "${data.type}".`}</div>
        </div>
      </div>
      <NodeRunSection nodeId={nodeId} kind={info?.kind} />
      <label className="field">
        <span className="field-label">Node id</span>
        <input
          value={idDraft}
          onChange={(e) => setIdDraft(e.target.value)}
          onBlur={commitId}
          onKeyDown={onIdKey}
          spellCheck={false}
          aria-invalid={idError !== null}
          data-testid="inspector-node-id"
        />
        {idError && (
          <span className="field-error" role="alert" data-testid="inspector-node-id-error">
            {idError}
          </span>
        )}
        <span className="field-hint">Renaming updates the connected edges. Press Enter to apply.</span>
      </label>
      <label className="field">
        <span className="field-label">Label</span>
        <input value={data.label ?? ''} maxLength={200} placeholder="Optional description on the node" onChange={(e) => edit({ kind: 'set-label', nodeId, label: e.target.value })} data-testid="inspector-label" />
      </label>
      {data.type === 'CRON_TRIGGER' && (
        <Suspense fallback={null}>
          <CronPreview config={data.config} />
        </Suspense>
      )}
      <BreakpointEditor nodeId={nodeId} onChange={(breakpoint) => actions?.setBreakpoint(nodeId, breakpoint)} />
      <Tabs.Root className="inspector-tabs" value={tab} onValueChange={(v) => setTab(v as InspectorTab)}>
        <Tabs.List className="tabs-list" aria-label="Config editor">
          <Tabs.Trigger className="tab" value="form" data-testid="inspector-tab-form">
            Form
          </Tabs.Trigger>
          <Tabs.Trigger className="tab" value="json" data-testid="inspector-tab-json">
            JSON
          </Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="form">
          <ConfigForm nodeId={nodeId} data={data} info={info} issues={problems} />
        </Tabs.Content>
        <Tabs.Content value="json">
          <RawConfigEditor nodeId={nodeId} config={data.config} />
        </Tabs.Content>
      </Tabs.Root>
      {problems && problems.length > 0 && (
        <div className="inspector-problems" data-testid="inspector-problems">
          <div className="field-label">Problems</div>
          <ul>
            {problems.map((p, i) => (
              <li key={i} className={`severity-${p.severity}`}>
                <code>{p.code}</code> {p.message}
              </li>
            ))}
          </ul>
        </div>
      )}
    </div>
  );
}
