import * as Tabs from '@radix-ui/react-tabs';
import { MousePointer2 } from 'lucide-react';
import { lazy, Suspense } from 'react';
import type { NodeTypeInfo } from '../../../shared/workflow/node-type';
import type { ValidationIssue } from '../../../shared/workflow/validation-issue';
import type { StudioNodeData } from '../../store/graph-model';
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
import { NodeIdField } from './NodeIdField';
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

  if (!data) return null;
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
      <NodeIdField nodeId={nodeId} />
      <label className="field">
        <span className="field-label">Label</span>
        <input
          value={data.label ?? ''}
          maxLength={200}
          placeholder="Optional description on the node"
          onChange={(e) => edit({ kind: 'set-label', nodeId, label: e.target.value })}
          data-testid="inspector-label"
        />
      </label>
      {data.type === 'CRON_TRIGGER' && (
        <Suspense fallback={null}>
          <CronPreview config={data.config} />
        </Suspense>
      )}
      <BreakpointEditor nodeId={nodeId} onChange={(breakpoint) => actions?.setBreakpoint(nodeId, breakpoint)} />
      <ConfigTabs nodeId={nodeId} data={data} info={info} problems={problems} />
      {problems && problems.length > 0 && <NodeProblems problems={problems} />}
    </div>
  );
}

type ConfigTabsProps = { nodeId: string; data: StudioNodeData; info: NodeTypeInfo | undefined; problems: readonly ValidationIssue[] | undefined };

/** The node's config as the generated form or raw JSON (the tab is kept across selections). */
function ConfigTabs({ nodeId, data, info, problems }: ConfigTabsProps) {
  const tab = useStudio((s) => s.inspectorTab);
  const setTab = useStudio((s) => s.setInspectorTab);
  return (
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
  );
}

function NodeProblems({ problems }: { problems: readonly ValidationIssue[] }) {
  return (
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
  );
}
