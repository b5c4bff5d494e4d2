import { act, render, screen } from '@testing-library/react';
import type { StoredWorkflow } from '../../shared/api/workflows.schema';
import { WorkflowDefinition, type WorkflowDefinitionInput } from '../../shared/workflow/definition.schema';
import { App } from '../App';
import { useStudio } from '../store/studio-store';
import { createFakeStudioClient } from './fake-studio-client';
import { manualFrames, resetStores } from './reset-stores';

/** trigger → shape (TRANSFORM) → print, the workflow most component tests start from. */
export const CHAIN: WorkflowDefinition = WorkflowDefinition.parse({
  workflowId: 'hello',
  nodes: [
    { nodeId: 'start', type: 'API_TRIGGER', position: { x: 0, y: 0 } },
    { nodeId: 'shape', type: 'TRANSFORM', config: { set: {}, mode: 'merge' }, position: { x: 250, y: 0 } },
    { nodeId: 'print', type: 'CONSOLE_TERMINAL', position: { x: 500, y: 0 } },
  ],
  edges: [
    { source: 'start', target: 'shape', sourcePort: 'out' },
    { source: 'shape', target: 'print', sourcePort: 'out' },
  ],
});

export function definition(input: WorkflowDefinitionInput): WorkflowDefinition {
  return WorkflowDefinition.parse(input);
}

/** Renders the studio on a fake host, at a hash, and waits for the palette (node types loaded). */
export async function openStudio(hash: string, seed: StoredWorkflow[] = [{ session: 'default', definition: CHAIN, version: 'v0', savedAt: 1 }]) {
  resetStores();
  window.history.replaceState(null, '', hash);
  const fake = createFakeStudioClient(seed);
  const frames = manualFrames();
  render(<App client={fake.client} schedule={frames.schedule} />);
  await screen.findByTestId('palette-item-API_TRIGGER');
  return { fake, frames };
}

/** Selects one node on the canvas, as a click would. */
export function selectNode(nodeId: string): void {
  act(() => useStudio.getState().edit({ kind: 'select', nodeId }));
}

export const nodeConfig = (nodeId: string) => useStudio.getState().nodes.find((n) => n.id === nodeId)?.data.config;
