import { describe, expect, it } from 'vitest';
import type { WorkflowDefinition } from '../../shared/workflow/definition.schema';
import type { StudioNode } from './graph-model';
import { createStudioStore } from './studio-store';

const node = (id: string, x = 0): StudioNode => ({ id, type: 'studio', position: { x, y: 0 }, data: { type: 'TRANSFORM', config: {} } });
const stored: WorkflowDefinition = {
  workflowId: 'greeter',
  description: '',
  nodes: [{ nodeId: 'start', type: 'API_TRIGGER', config: {}, position: { x: 0, y: 0 } }],
  edges: [],
} as unknown as WorkflowDefinition;

describe('issue 15 item 6: dirty means "differs from the saved graph"', () => {
  it('undo back to the opened graph is clean; redo makes it dirty again', () => {
    const store = createStudioStore();
    store.getState().openWorkflow('default', { definition: stored, version: 'v1' });
    store.getState().edit({ kind: 'add-node', node: node('extra', 300) });
    expect(store.getState().dirty).toBe(true);
    store.getState().undo();
    expect(store.getState().dirty).toBe(false);
    store.getState().redo();
    expect(store.getState().dirty).toBe(true);
  });

  it('undo back to the graph as last saved is clean, to an older graph is dirty', () => {
    const store = createStudioStore();
    store.getState().openWorkflow('default', { definition: stored, version: 'v1' });
    store.getState().edit({ kind: 'add-node', node: node('a', 200) });
    store.getState().markSaved('greeter', 'v2');
    store.getState().edit({ kind: 'add-node', node: node('b', 400) });
    store.getState().undo();
    expect(store.getState().dirty).toBe(false);
    store.getState().undo();
    expect(store.getState().dirty).toBe(true);
  });

  it('selection and a moved-back node leave it clean; a changed id or an import is dirty', () => {
    const store = createStudioStore();
    store.getState().openWorkflow('default', { definition: stored, version: 'v1' });
    store.getState().edit({ kind: 'select', nodeId: 'start' });
    expect(store.getState().dirty).toBe(false);
    store.getState().edit({ kind: 'move-nodes', positions: { start: { x: 50, y: 0 } } });
    store.getState().undo();
    expect(store.getState().dirty).toBe(false);
    store.getState().setWorkflowId('greeter-2');
    expect(store.getState().dirty).toBe(true);
    store.getState().setWorkflowId('greeter');
    expect(store.getState().dirty).toBe(false);
    store.getState().importWorkflow(stored);
    store.getState().edit({ kind: 'add-node', node: node('c') });
    store.getState().undo();
    expect(store.getState().dirty).toBe(true);
  });
});
