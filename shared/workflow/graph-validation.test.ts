import { describe, expect, it } from 'vitest';
import { validateGraph, validateWorkflowShape } from './graph-validation';
import { WorkflowDefinition, MAX_NODES } from './definition.schema';
import type { NodeTypeCatalog } from './node-type';

const catalog: NodeTypeCatalog = new Map([
  ['API_TRIGGER', { kind: 'trigger', outputs: ['out'] }],
  ['TRANSFORM', { kind: 'processor', outputs: ['out'] }],
  ['CONSOLE_TERMINAL', { kind: 'terminal', outputs: [] }],
]);

function def(nodes: Array<[string, string, Record<string, unknown>?]>, edges: Array<[string, string, string?]>) {
  return WorkflowDefinition.parse({
    workflowId: 'w',
    nodes: nodes.map(([nodeId, type, config]) => ({ nodeId, type, config: config ?? {} })),
    edges: edges.map(([source, target, sourcePort]) => (sourcePort ? { source, target, sourcePort } : { source, target })),
  });
}

const codes = (issues: Array<{ code: string }>) => issues.map((i) => i.code);

describe('DEF-02 graph validation', () => {
  it('accepts a valid chain', () => {
    const d = def(
      [
        ['a', 'API_TRIGGER'],
        ['b', 'TRANSFORM'],
        ['c', 'CONSOLE_TERMINAL'],
      ],
      [
        ['a', 'b'],
        ['b', 'c'],
      ],
    );
    expect(validateGraph(d, catalog)).toEqual([]);
  });

  it('rejects a cycle and names every node in it', () => {
    const d = def(
      [
        ['a', 'API_TRIGGER'],
        ['x', 'TRANSFORM'],
        ['y', 'TRANSFORM'],
      ],
      [
        ['a', 'x'],
        ['x', 'y'],
        ['y', 'x'],
      ],
    );
    const cycle = validateGraph(d, catalog).find((i) => i.code === 'DEF-02/cycle');
    expect(cycle?.nodeIds?.sort()).toEqual(['x', 'y']);
    expect(cycle?.message).toContain('cycle');
  });

  it('rejects a self loop as a cycle', () => {
    const d = def([['x', 'TRANSFORM']], [['x', 'x']]);
    expect(codes(validateGraph(d, catalog))).toContain('DEF-02/cycle');
  });

  it('rejects duplicate node ids with the path of the second', () => {
    const d = def(
      [
        ['a', 'API_TRIGGER'],
        ['a', 'TRANSFORM'],
      ],
      [],
    );
    const issue = validateGraph(d, catalog).find((i) => i.code === 'DEF-02/duplicate-node');
    expect(issue).toMatchObject({ nodeId: 'a', path: 'nodes.1.nodeId' });
  });

  it('rejects duplicate edges', () => {
    const d = def(
      [
        ['a', 'API_TRIGGER'],
        ['b', 'CONSOLE_TERMINAL'],
      ],
      [
        ['a', 'b'],
        ['a', 'b'],
      ],
    );
    expect(codes(validateGraph(d, catalog))).toContain('DEF-02/duplicate-edge');
  });

  it('rejects edges to unknown nodes, naming the edge end', () => {
    const d = def([['a', 'API_TRIGGER']], [['a', 'ghost']]);
    expect(validateGraph(d, catalog).find((i) => i.code === 'DEF-02/unknown-node')?.path).toBe('edges.0.target');
  });

  it('rejects unknown node types', () => {
    const d = def([['a', 'NOPE']], []);
    expect(validateGraph(d, catalog)[0]).toMatchObject({ code: 'DEF-02/unknown-type', nodeId: 'a', path: 'nodes.0.type' });
  });

  it('rejects a port the source does not declare, but allows error with onError ROUTE', () => {
    const bad = def(
      [
        ['a', 'API_TRIGGER'],
        ['b', 'TRANSFORM'],
        ['c', 'CONSOLE_TERMINAL'],
      ],
      [
        ['a', 'b'],
        ['b', 'c', 'error'],
      ],
    );
    expect(codes(validateGraph(bad, catalog))).toContain('DEF-02/unknown-port');
    const routed = def(
      [
        ['a', 'API_TRIGGER'],
        ['b', 'TRANSFORM', { engine: { onError: 'ROUTE' } }],
        ['c', 'CONSOLE_TERMINAL'],
      ],
      [
        ['a', 'b'],
        ['b', 'c', 'error'],
      ],
    );
    expect(codes(validateGraph(routed, catalog))).not.toContain('DEF-02/unknown-port');
  });

  it('rejects input into a trigger', () => {
    const d = def(
      [
        ['a', 'API_TRIGGER'],
        ['b', 'API_TRIGGER'],
      ],
      [['a', 'b']],
    );
    expect(codes(validateGraph(d, catalog))).toContain('DEF-02/trigger-input');
  });

  it('warns (not errors) when there is no trigger', () => {
    const issues = validateGraph(def([['b', 'TRANSFORM']], []), catalog);
    expect(issues).toEqual([expect.objectContaining({ code: 'DEF-02/no-trigger', severity: 'warning' })]);
  });

  it(`rejects graphs over ${MAX_NODES} nodes`, () => {
    const nodes = Array.from({ length: MAX_NODES + 1 }, (_, i): [string, string] => [`n${i}`, 'TRANSFORM']);
    expect(codes(validateGraph(def(nodes, []), catalog))).toContain('DEF-02/too-many-nodes');
  });

  it('rejects malformed failure policies with node id and option', () => {
    const d = def(
      [['b', 'TRANSFORM', { engine: { retry: { maxAttempts: 3, retryOn: ['X'], noRetryOn: ['X'] }, deadlineMs: 10, elementTimeoutMs: 20, bogus: 1 } }]],
      [],
    );
    const issues = validateGraph(d, catalog).filter((i) => i.code === 'DEF-02/policy');
    expect(issues.some((i) => i.path === 'nodes.0.config.engine.bogus' && i.message.includes('bogus'))).toBe(true);
    const clean = def(
      [['b', 'TRANSFORM', { engine: { retry: { maxAttempts: 3, retryOn: ['X'], noRetryOn: ['X'] }, deadlineMs: 10, elementTimeoutMs: 20 } }]],
      [],
    );
    const paths = validateGraph(clean, catalog)
      .filter((i) => i.code === 'DEF-02/policy')
      .map((i) => i.path);
    expect(paths).toEqual(['nodes.0.config.engine.retry.noRetryOn', 'nodes.0.config.engine.deadlineMs']);
  });

  it('reports schema problems with the path and node id (identifiers)', () => {
    const { definition, issues } = validateWorkflowShape({ workflowId: 'w', nodes: [{ nodeId: '../etc', type: 'TRANSFORM' }] }, catalog);
    expect(definition).toBeNull();
    expect(issues[0]).toMatchObject({ code: 'DEF-02/schema', path: 'nodes.0.nodeId', nodeId: '../etc' });
    expect(issues[0]?.message).toContain('path separator');
  });
});
