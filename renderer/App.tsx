import { assertNever } from '../shared/assert-never';
import { ReactFlowProvider } from '@xyflow/react';
import { useMemo } from 'react';
import type { StudioClient } from '../shared/api/client';
import { ApiProvider, useApi } from './api/api-context';
import type { FrameScheduler } from './api/event-coalescer';
import { BottomPanel } from './components/BottomPanel';
import { CollapsiblePanel } from './components/CollapsiblePanel';
import { ConfirmHost } from './components/confirm';
import { TooltipProvider } from './components/Tooltip';
import { BreakpointsPanel } from './features/debugger/BreakpointsPanel';
import { CanvasToolbar } from './features/editor/CanvasToolbar';
import { ExamplesDialog } from './features/examples/ExamplesDialog';
import { EditorCanvas } from './features/editor/EditorCanvas';
import { Inspector } from './features/editor/Inspector';
import { NodeSearch } from './features/editor/NodeSearch';
import { Palette } from './features/editor/Palette';
import { useAddNode } from './features/editor/use-add-node';
import { ProblemsPanel } from './features/problems/ProblemsPanel';
import { useLiveValidation } from './features/problems/live-validation';
import { InboxPanel } from './features/inbox/InboxPanel';
import { AuditPanel } from './features/runs/AuditPanel';
import { LogsPanel } from './features/runs/LogsPanel';
import { ResultsPanel } from './features/runs/ResultsPanel';
import { RunBanner } from './features/runs/RunBanner';
import { RunsPanel } from './features/runs/RunsPanel';
import { showApprovalRun } from './features/runs/show-approval-run';
import { TimelinePanel } from './features/runs/TimelinePanel';
import { SchedulerPanel } from './features/scheduler/SchedulerPanel';
import { SessionsDialog } from './features/sessions/SessionsDialog';
import { SettingsDialog } from './features/settings/SettingsDialog';
import { SaveNoteDialog } from './features/versions/SaveNoteDialog';
import { DiffBanner, VersionsPanel } from './features/versions/VersionsPanel';
import { ActionBanner, AppBar } from './features/workflow/AppBar';
import { ActionsProvider } from './features/workflow/actions-context';
import { ShortcutsDialog } from './features/workflow/ShortcutsDialog';
import { SaveAsDialog } from './features/workflow/SaveAsDialog';
import { useFileDrop } from './features/workflow/use-file-drop';
import { useStudioStartup, useUnsavedChangesGuard } from './features/workflow/use-studio-startup';
import { createStudioActions, type StudioActions } from './features/workflow/workflow-actions';
import { useStudio } from './store/studio-store';
import { useStudioCommands } from './commands/use-commands';
import { ConnectServerDialog } from './features/connect/ConnectServerDialog';
import { useOpenedFiles } from './desktop/use-opened-files';

/** The studio: app bar, palette | canvas | inspector, bottom panel. */
export function App({ client, schedule }: { client: StudioClient; schedule?: FrameScheduler }) {
  return (
    <ApiProvider client={client}>
      <ReactFlowProvider>
        <TooltipProvider>
          <Studio schedule={schedule} />
        </TooltipProvider>
      </ReactFlowProvider>
    </ApiProvider>
  );
}

function Studio({ schedule }: { schedule?: FrameScheduler }) {
  const api = useApi();
  const actions = useMemo(() => createStudioActions(api), [api]);
  const addNode = useAddNode();
  const paletteOpen = useStudio((s) => s.paletteOpen);
  const inspectorOpen = useStudio((s) => s.inspectorOpen);
  useLiveValidation();
  useStudioStartup(api, actions, schedule);
  const runCommand = useStudioCommands(actions);
  useOpenedFiles(actions);
  useFileDrop(actions);
  useUnsavedChangesGuard();

  return (
    <ActionsProvider actions={actions}>
      <div className="studio">
        <AppBar actions={actions} runCommand={runCommand} />
        <ActionBanner />
        <main className="workspace" data-palette={paletteOpen ? 'open' : 'closed'} data-inspector={inspectorOpen ? 'open' : 'closed'}>
          <CollapsiblePanel panel="palette" title="Nodes">
            <Palette onAdd={(type) => void addNode(type)} />
          </CollapsiblePanel>
          <div className="canvas-column">
            <DiffBanner onExit={actions.exitDiff} />
            <RunBanner onDiff={(runVersion) => void actions.compareWithDraft(runVersion)} onExit={actions.exitRun} />
            <EditorCanvas toolbar={<CanvasToolbar files={actions} />} />
          </div>
          <CollapsiblePanel panel="inspector" title="Inspector">
            <Inspector />
          </CollapsiblePanel>
        </main>
        <BottomPanel
          problems={<ProblemsPanel />}
          runs={<RunsPanel onSelect={(id) => void actions.showRun(id)} />}
          logs={<LogsPanel />}
          results={<ResultsPanel />}
          timeline={<TimelinePanel />}
          versions={<VersionsPanel actions={actions} />}
          breakpoints={<BreakpointsPanel />}
          scheduler={<SchedulerPanel schedule={schedule} />}
          audit={<AuditPanel />}
        />
        <InboxPanel actions={actions} onShowRun={(approval) => void showApprovalRun(actions, approval)} />
        <StudioDialogs actions={actions} />
        <ConfirmHost />
      </div>
    </ActionsProvider>
  );
}

/** The one open dialog of the studio, if any (UI slice `dialog`). */
function StudioDialogs({ actions }: { actions: StudioActions }) {
  const dialog = useStudio((s) => s.dialog);
  switch (dialog) {
    case 'node-search':
      return <NodeSearch />;
    case 'shortcuts':
      return <ShortcutsDialog />;
    case 'save-note':
      return <SaveNoteDialog onSave={(note) => void actions.save(note || undefined)} />;
    case 'sessions':
      return <SessionsDialog actions={actions} />;
    case 'save-as':
      return <SaveAsDialog onSave={() => void actions.save()} />;
    case 'connect-server':
      return <ConnectServerDialog />;
    case 'run-payload':
      return null; // the app bar shows it under its Run button
    case 'examples':
      return <ExamplesDialog />;
    case 'settings':
      return <SettingsDialog />;
    case null:
      return null;
    default:
      return assertNever(dialog, 'dialog');
  }
}
