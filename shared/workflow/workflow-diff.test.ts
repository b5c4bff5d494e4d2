import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { WorkflowDefinition, type EdgeDefinition } from './definition.schema';
import { applyWorkflowDiff, diffWorkflows, edgeKey, isEmptyDiff, sameJson, WorkflowDiff } from './workflow-diff';

const base = WorkflowDefinition.parse({
  workflowId: 'w',
  description: 'v1',
  nodes: [
    { nodeId: 'start', type: 'API_TRIGGER', position: { x: 0, y: 0 } },
    { nodeId: 'greet', type: 'TRANSFORM', config: { set: { greeting: 'Hello', who: 'you' }, mode: 'merge' } },
    { nodeId: 'print', type: 'CONSOLE_TERMINAL' },
  ],
  edges: [
    { source: 'start', target: 'greet' },
    { source: 'greet', target: 'print' },
  ],
});

function edit(change: (w: WorkflowDefinition) => void): WorkflowDefinition {
  const copy = structuredClone(base);
  change(copy);
  return copy;
}

describe('DEF-01 WorkflowDiff', () => {
  it('reports nothing for identical graphs, whatever their key order', () => {
    const reversed = (v: unknown): unknown =>
      v && typeof v === 'object' && !Array.isArray(v)
        ? Object.fromEntries(
            Object.entries(v)
              .reverse()
              .map(([k, x]) => [k, reversed(x)]),
          )
        : Array.isArray(v)
          ? v.map(reversed)
          : v;
    expect(isEmptyDiff(diffWorkflows(base, structuredClone(base)))).toBe(true);
    expect(isEmptyDiff(diffWorkflows(base, reversed(base) as WorkflowDefinition))).toBe(true);
  });

  it('names the changed config keys with old and new values', () => {
    const after = edit((w) => {
      w.nodes[1]!.config = { set: { greeting: 'Hi', extra: 1 }, mode: 'merge' };
      w.nodes[1]!.label = 'Greet';
    });
    const diff = diffWorkflows(base, after);
    expect(diff.nodes.changed).toEqual([
      {
        nodeId: 'greet',
        changes: [
          { key: 'label', path: ['label'], after: 'Greet' },
          { key: 'config.set.extra', path: ['config', 'set', 'extra'], after: 1 },
          { key: 'config.set.greeting', path: ['config', 'set', 'greeting'], before: 'Hello', after: 'Hi' },
          { key: 'config.set.who', path: ['config', 'set', 'who'], before: 'you' },
        ],
      },
    ]);
    expect(diff.nodes.moved).toEqual([]);
    expect(WorkflowDiff.parse(diff)).toEqual(diff);
  });

  it('reports type and timeout changes, and a config key holding a dot exactly', () => {
    const after = edit((w) => {
      w.nodes[2]!.type = 'LOG_TERMINAL';
      w.nodes[2]!.timeoutSeconds = 5;
      w.nodes[2]!.config = { 'a.b': true };
    });
    expect(diffWorkflows(base, after).nodes.changed[0]?.changes.map((c) => [c.key, c.path])).toEqual([
      ['type', ['type']],
      ['timeoutSeconds', ['timeoutSeconds']],
      ['config.a.b', ['config', 'a.b']],
    ]);
  });

  it('reports a position-only change as moved, not changed', () => {
    const after = edit((w) => {
      w.nodes[0]!.position = { x: 10, y: 20 };
      w.nodes[2]!.position = { x: 1, y: 1 };
    });
    const diff = diffWorkflows(base, after);
    expect(diff.nodes.changed).toEqual([]);
    expect(diff.nodes.moved).toEqual([
      { nodeId: 'start', before: { x: 0, y: 0 }, after: { x: 10, y: 20 } },
      { nodeId: 'print', after: { x: 1, y: 1 } },
    ]);
  });

  it('reports description, added and removed nodes and edges (ports are part of an edge)', () => {
    const after = edit((w) => {
      w.description = 'v2';
      w.nodes = w.nodes.filter((n) => n.nodeId !== 'print');
      w.nodes.push({ nodeId: 'log', type: 'CONSOLE_TERMINAL', config: {} });
      w.edges = [
        { source: 'start', target: 'greet' },
        { source: 'greet', target: 'log', sourcePort: 'out' },
      ];
    });
    const diff = diffWorkflows(base, after);
    expect(diff.description).toEqual({ before: 'v1', after: 'v2' });
    expect(diff.nodes.added.map((n) => n.nodeId)).toEqual(['log']);
    expect(diff.nodes.removed.map((n) => n.nodeId)).toEqual(['print']);
    expect(diff.edges).toEqual({ added: [{ source: 'greet', target: 'log', sourcePort: 'out' }], removed: [{ source: 'greet', target: 'print' }] });
  });

  it('does not count reordered nodes or edges as a change', () => {
    const after = edit((w) => {
      w.nodes.reverse();
      w.edges.reverse();
    });
    expect(isEmptyDiff(diffWorkflows(base, after))).toBe(true);
  });
});

// Small pools of ids, types and keys make overlaps (changed nodes, shared edges) likely.
const NODE_IDS = ['a', 'b', 'c', 'd', 'e'];
const jsonValue = fc.jsonValue({ maxDepth: 2 }).map((v) => JSON.parse(JSON.stringify(v)) as unknown);
const config = fc.dictionary(
  fc.constantFrom('mode', 'set', 'prefix', 'a.b', 'engine'),
  fc.oneof(jsonValue, fc.dictionary(fc.constantFrom('x', 'y'), jsonValue)),
  { maxKeys: 3 },
);
const node = (nodeId: string) =>
  fc.record(
    {
      nodeId: fc.constant(nodeId),
      type: fc.constantFrom('API_TRIGGER', 'TRANSFORM', 'CONSOLE_TERMINAL'),
      config,
      label: fc.string({ maxLength: 5 }),
      timeoutSeconds: fc.integer({ min: 1, max: 3 }),
      position: fc.record({ x: fc.integer({ min: 0, max: 3 }), y: fc.integer({ min: 0, max: 3 }) }),
    },
    { requiredKeys: ['nodeId', 'type', 'config'] },
  );
const edge = fc.record(
  { source: fc.constantFrom(...NODE_IDS), target: fc.constantFrom(...NODE_IDS), sourcePort: fc.constantFrom('out', 'error'), targetPort: fc.constant('in') },
  { requiredKeys: ['source', 'target'] },
);
const workflow = fc
  .record({
    ids: fc.subarray(NODE_IDS),
    description: fc.constantFrom('', 'one', 'two'),
    edges: fc.uniqueArray(edge, { maxLength: 6, selector: (e) => edgeKey(e as EdgeDefinition) }),
  })
  .chain(({ ids, description, edges }) => fc.tuple(...ids.map(node)).map((nodes) => WorkflowDefinition.parse({ workflowId: 'w', description, nodes, edges })));

/** Compares graphs up to node and edge order, which the diff does not report. */
function normalized(w: WorkflowDefinition): unknown {
  return JSON.parse(
    JSON.stringify({
      ...w,
      nodes: [...w.nodes].sort((x, y) => x.nodeId.localeCompare(y.nodeId)),
      edges: [...w.edges].sort((x, y) => edgeKey(x).localeCompare(edgeKey(y))),
    }),
  );
}

describe('DEF-01 WorkflowDiff properties', () => {
  it('diff(a, a) is empty', () => {
    fc.assert(fc.property(workflow, (a) => isEmptyDiff(diffWorkflows(a, structuredClone(a)))));
  });

  it('applying diff(a, b) to a yields b, also after a JSON round trip of the diff', () => {
    fc.assert(
      fc.property(workflow, workflow, (a, b) => {
        const diff = JSON.parse(JSON.stringify(diffWorkflows(a, b))) as WorkflowDiff;
        expect(normalized(applyWorkflowDiff(a, diff))).toEqual(normalized(b));
      }),
      { numRuns: 300 },
    );
  });

  it('a config key named __proto__ is an own key: removed, added and compared like any other (found by the property above)', () => {
    const withKey = JSON.parse(
      '{"workflowId":"w","nodes":[{"nodeId":"c","type":"API_TRIGGER","config":{"mode":{"__proto__":""}}}],"edges":[]}',
    ) as WorkflowDefinition;
    const without = JSON.parse('{"workflowId":"w","nodes":[{"nodeId":"c","type":"API_TRIGGER","config":{"mode":{}}}],"edges":[]}') as WorkflowDefinition;
    const removed = JSON.parse(JSON.stringify(diffWorkflows(withKey, without))) as WorkflowDiff;
    expect(normalized(applyWorkflowDiff(withKey, removed))).toEqual(normalized(without));
    const added = JSON.parse(JSON.stringify(diffWorkflows(without, withKey))) as WorkflowDiff;
    expect(Object.hasOwn((applyWorkflowDiff(without, added).nodes[0]!.config as { mode: object }).mode, '__proto__')).toBe(true);
    expect(isEmptyDiff(diffWorkflows(without, structuredClone(without)))).toBe(true);
    expect(sameJson(withKey, without)).toBe(false);
    expect(Object.getPrototypeOf({})).toBe(Object.prototype);
  });

  it('a diff is empty exactly when the graphs are equal up to order', () => {
    fc.assert(
      fc.property(workflow, workflow, (a, b) => {
        const same = sameJson(normalized(a), normalized(b));
        return isEmptyDiff(diffWorkflows(a, b)) === same;
      }),
    );
  });
});
