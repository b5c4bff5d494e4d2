// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { markEdgeProblems } from '../features/editor/edge-problems';
import { validateOpenGraph } from '../features/problems/live-validation';
import { selectedNodeId } from './graph-slice';
import type { StudioNode } from './graph-model';
import { createStudioStore } from './studio-store';

const node = (id: string, type = 'TRANSFORM', x = 0): StudioNode => ({ id, type: 'studio', position: { x, y: 0 }, data: { type, config: {} } });
const catalog = new Map([
  ['API_TRIGGER', { kind: 'trigger' as const, outputs: ['out'] }],
  ['TRANSFORM', { kind: 'processor' as const, outputs: ['out'] }],
]);

describe('STU-01 graph slice: edits as data, undo/redo', () => {
  it('undoes and redoes edits; selection is not an undo step', () => {
    const store = createStudioStore();
    const { edit } = store.getState();
    edit({ kind: 'add-node', node: node('a') });
    edit({ kind: 'add-node', node: node('b', 'TRANSFORM', 200) });
    edit({ kind: 'connect', source: 'a', sourcePort: 'out', target: 'b' });
    edit({ kind: 'select', nodeId: 'a' });
    expect(store.getState().past).toHaveLength(3);
    expect(selectedNodeId(store.getState())).toBe('a');

    store.getState().undo();
    expect(store.getState().edges).toHaveLength(0);
    store.getState().undo();
    expect(store.getState().nodes.map((n) => n.id)).toEqual(['a']);
    store.getState().redo();
    store.getState().redo();
    expect(store.getState().edges.map((e) => e.id)).toEqual(['a:out->b']);
    expect(store.getState().dirty).toBe(true);
  });

  it('records a whole node drag as one undo step', () => {
    const store = createStudioStore();
    store.getState().edit({ kind: 'add-node', node: node('a') });
    for (let x = 10; x <= 50; x += 10)
      store.getState().edit({ kind: 'flow-nodes', changes: [{ type: 'position', id: 'a', position: { x, y: 0 }, dragging: true }] });
    store.getState().edit({ kind: 'flow-nodes', changes: [{ type: 'position', id: 'a', position: { x: 50, y: 0 }, dragging: false }] });
    expect(store.getState().past).toHaveLength(2);
    store.getState().undo();
    expect(store.getState().nodes[0]!.position.x).toBe(0);
  });

  it('opening a workflow clears the history and the dirty flag', () => {
    const store = createStudioStore();
    store.getState().edit({ kind: 'add-node', node: node('a') });
    store.getState().openWorkflow('default', null);
    expect(store.getState()).toMatchObject({ past: [], future: [], dirty: false, nodes: [] });
  });
});

describe('DEF-02 live validation of the open graph', () => {
  it('reports a cycle naming its nodes, and marks the cycle edges', () => {
    const store = createStudioStore();
    const { edit } = store.getState();
    edit({ kind: 'add-node', node: node('t', 'API_TRIGGER') });
    edit({ kind: 'add-node', node: node('a') });
    edit({ kind: 'add-node', node: node('b') });
    edit({ kind: 'connect', source: 't', sourcePort: 'out', target: 'a' });
    edit({ kind: 'connect', source: 'a', sourcePort: 'out', target: 'b' });
    edit({ kind: 'connect', source: 'b', sourcePort: 'out', target: 'a' });
    const issues = validateOpenGraph({ ...store.getState(), workflowId: '' }, catalog);
    const cycle = issues.find((i) => i.code === 'DEF-02/cycle');
    expect(cycle?.nodeIds?.sort()).toEqual(['a', 'b']);
    expect(issues.some((i) => i.code === 'DEF-02/schema')).toBe(false); // an empty workflow id is reported at its field, not here

    const marked = markEdgeProblems(store.getState().edges, issues);
    expect(marked.filter((e) => e.className === 'has-problem').map((e) => e.id)).toEqual(['a:out->b', 'b:out->a']);
  });

  it('reports an edge into a trigger and an unknown port on that edge', () => {
    const store = createStudioStore();
    const { edit } = store.getState();
    edit({ kind: 'add-node', node: node('t', 'API_TRIGGER') });
    edit({ kind: 'add-node', node: node('a') });
    edit({ kind: 'connect', source: 'a', sourcePort: 'nope', target: 't' });
    const codes = validateOpenGraph(store.getState(), catalog).map((i) => i.code);
    expect(codes).toEqual(expect.arrayContaining(['DEF-02/trigger-input', 'DEF-02/unknown-port']));
    expect(markEdgeProblems(store.getState().edges, validateOpenGraph(store.getState(), catalog))[0]!.className).toBe('has-problem');
  });
});
