// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { WorkflowDefinition } from '../../shared/workflow/definition.schema';
import { applyGraphEdit, nextNodeId } from './graph-edits';
import { fromDefinition, toDefinition } from './graph-model';

const definition = WorkflowDefinition.parse({
  workflowId: 'orders',
  description: 'three nodes',
  nodes: [
    { nodeId: 'start', type: 'API_TRIGGER', config: {}, position: { x: 0, y: 0 } },
    { nodeId: 'shape', type: 'TRANSFORM', config: { set: { greeting: 'Hello ${payload.name}' }, mode: 'merge' }, position: { x: 260, y: 10 }, label: 'Greets' },
    { nodeId: 'print', type: 'CONSOLE_TERMINAL', config: {}, position: { x: 520, y: 0 }, timeoutSeconds: 5 },
  ],
  edges: [
    { source: 'start', target: 'shape', sourcePort: 'out' },
    { source: 'shape', target: 'print' },
  ],
});

describe('STU-01 graph model (definition ↔ React Flow)', () => {
  it('round-trips a definition through canvas nodes and edges unchanged', () => {
    const graph = fromDefinition(definition);
    expect(graph.nodes.map((n) => n.id)).toEqual(['start', 'shape', 'print']);
    expect(graph.edges.map((e) => [e.source, e.sourceHandle, e.target])).toEqual([
      ['start', 'out', 'shape'],
      ['shape', 'out', 'print'],
    ]);
    const back = toDefinition({ workflowId: 'orders', description: 'three nodes', ...graph });
    expect(back).toEqual(definition);
    expect(WorkflowDefinition.parse(back)).toEqual(back);
  });

  it('lays out nodes without a saved position by depth, left to right', () => {
    const def = WorkflowDefinition.parse({
      workflowId: 'w',
      nodes: [
        { nodeId: 'c', type: 'CONSOLE_TERMINAL' },
        { nodeId: 'a', type: 'API_TRIGGER' },
        { nodeId: 'b', type: 'TRANSFORM' },
      ],
      edges: [
        { source: 'a', target: 'b' },
        { source: 'b', target: 'c' },
      ],
    });
    const x = Object.fromEntries(fromDefinition(def).nodes.map((n) => [n.id, n.position.x]));
    expect(x['a']).toBeLessThan(x['b']!);
    expect(x['b']).toBeLessThan(x['c']!);
  });

  it('connect adds an edge with its source port once; duplicates are not created', () => {
    const graph = fromDefinition({ ...definition, edges: [] });
    const once = applyGraphEdit(graph, { kind: 'connect', source: 'start', sourcePort: 'out', target: 'shape' });
    const twice = applyGraphEdit(once, { kind: 'connect', source: 'start', sourcePort: 'out', target: 'shape' });
    expect(once.changed).toBe(true);
    expect(twice.edges).toBe(once.edges);
    expect(toDefinition({ workflowId: 'w', description: '', ...once }).edges).toEqual([{ source: 'start', target: 'shape', sourcePort: 'out' }]);
  });

  it('renaming a node updates its edges', () => {
    const renamed = applyGraphEdit(fromDefinition(definition), { kind: 'rename-node', from: 'shape', to: 'enrich' });
    const def = toDefinition({ workflowId: 'orders', description: '', ...renamed });
    expect(def.nodes.map((n) => n.nodeId)).toEqual(['start', 'enrich', 'print']);
    expect(def.edges.map((e) => `${e.source}->${e.target}`)).toEqual(['start->enrich', 'enrich->print']);
    expect(new Set(renamed.edges.map((e) => e.id)).size).toBe(2);
  });

  it('refuses a rename onto an existing id', () => {
    const graph = fromDefinition(definition);
    expect(applyGraphEdit(graph, { kind: 'rename-node', from: 'shape', to: 'print' }).changed).toBe(false);
  });

  it('removing a node removes its edges; selection changes do not dirty the graph', () => {
    const graph = fromDefinition(definition);
    const removed = applyGraphEdit(graph, { kind: 'flow-nodes', changes: [{ type: 'remove', id: 'shape' }] });
    expect(removed.nodes.map((n) => n.id)).toEqual(['start', 'print']);
    expect(removed.edges).toEqual([]);
    expect(removed.changed).toBe(true);
    const selected = applyGraphEdit(graph, { kind: 'flow-nodes', changes: [{ type: 'select', id: 'print', selected: true }] });
    expect(selected.changed).toBe(false);
  });

  it('gives new nodes unique ids per type', () => {
    expect(nextNodeId('TRANSFORM', ['transform_1', 'transform_3'])).toBe('transform_2');
    expect(nextNodeId('API_TRIGGER', [])).toBe('api_trigger_1');
  });
});
