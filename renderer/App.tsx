import { ReactFlowProvider } from '@xyflow/react';
import { useMemo } from 'react';
import type { StudioClient } from '../shared/api/client';
import { ApiProvider, useApi } from './api/api-context';
import type { FrameScheduler } from './api/event-coalescer';
import { BottomPanel } from './components/BottomPanel';
import { CollapsiblePanel } from './components/CollapsiblePanel';
import { EditorCanvas } from './features/editor/EditorCanvas';
import { Inspector } from './features/editor/Inspector';
import { Palette } from './features/editor/Palette';
import { useAddNode } from './features/editor/use-add-node';
import { ProblemsPanel } from './features/problems/ProblemsPanel';
import { useLiveValidation } from './features/problems/live-validation';
import { RunsPanel } from './features/runs/RunsPanel';
import { ActionBanner, AppBar } from './features/workflow/AppBar';
import { useStudioShortcuts, useStudioStartup, useUnsavedChangesGuard } from './features/workflow/use-studio-startup';
import { createStudioActions } from './features/workflow/workflow-actions';
import { useStudio } from './store/studio-store';

/** The studio: app bar, palette | canvas | inspector, bottom panel. */
export function App({ client, schedule }: { client: StudioClient; schedule?: FrameScheduler }) {
  return (
    <ApiProvider client={client}>
      <ReactFlowProvider>
        <Studio schedule={schedule} />
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
  useStudioShortcuts(actions);
  useUnsavedChangesGuard();

  return (
    <div className="studio">
      <AppBar actions={actions} />
      <ActionBanner />
      <main className="workspace" data-palette={paletteOpen ? 'open' : 'closed'} data-inspector={inspectorOpen ? 'open' : 'closed'}>
        <CollapsiblePanel panel="palette" title="Nodes">
          <Palette onAdd={(type) => void addNode(type)} />
        </CollapsiblePanel>
        <EditorCanvas />
        <CollapsiblePanel panel="inspector" title="Inspector">
          <Inspector />
        </CollapsiblePanel>
      </main>
      <BottomPanel problems={<ProblemsPanel />} runs={<RunsPanel onSelect={(id) => void actions.showRun(id)} />} />
    </div>
  );
}
