import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ValidationCode, type ValidationIssue } from '../../shared/workflow/validation-issue';
import { definePlugin, type Plugin } from '../plugins/contract';
import { PluginRegistry } from '../plugins/registry';
import { validateDefinition } from './validate-definition';

const plugin = (type: string, kind: 'trigger' | 'processor' | 'terminal', configSchema: z.ZodType = z.strictObject({})) =>
  definePlugin({
    type,
    kind,
    title: type,
    description: type,
    configSchema,
    defaultConfig: {},
    outputs: kind === 'terminal' ? [] : ['out'],
    process: () => undefined,
  }) as unknown as Plugin<never>;

/** A small registry of our own, so the table does not move when the built-in plugins change. */
const registry = new PluginRegistry([
  plugin('T', 'trigger'),
  plugin('P', 'processor', z.strictObject({ mode: z.enum(['merge', 'replace']).default('merge') })),
  plugin('S', 'terminal'),
]);

const n = (nodeId: string, type = 'P', extra: Record<string, unknown> = {}) => ({ nodeId, type, ...extra });
const e = (source: string, target: string, sourcePort?: string) => (sourcePort ? { source, target, sourcePort } : { source, target });
const wf = (nodes: unknown[], edges: unknown[] = []) => ({ workflowId: 'w', nodes, edges });

type Expected = Pick<ValidationIssue, 'code' | 'severity'> & { nodeId: string | undefined; path: string | undefined; edgeIndex?: number; nodeIds?: string[] };

/**
 * One row per DEF-02 rule: the smallest graph breaking it and the issue expected, with the node and the
 * path at fault (undefined where the rule is about the whole graph).
 */
const RULES: Array<[ValidationCode, unknown, Expected]> = [
  ['DEF-02/schema', wf([n('../x', 'T')]), { code: 'DEF-02/schema', severity: 'error', nodeId: '../x', path: 'nodes.0.nodeId' }],
  ['DEF-02/duplicate-node', wf([n('t', 'T'), n('t')]), { code: 'DEF-02/duplicate-node', severity: 'error', nodeId: 't', path: 'nodes.1.nodeId' }],
  [
    'DEF-02/duplicate-edge',
    wf([n('t', 'T'), n('s', 'S')], [e('t', 's'), e('t', 's')]),
    { code: 'DEF-02/duplicate-edge', severity: 'error', nodeId: 't', edgeIndex: 1, path: 'edges.1' },
  ],
  [
    'DEF-02/unknown-node',
    wf([n('t', 'T')], [e('t', 'ghost')]),
    { code: 'DEF-02/unknown-node', severity: 'error', nodeId: 't', edgeIndex: 0, path: 'edges.0.target' },
  ],
  [
    'DEF-02/cycle',
    wf([n('t', 'T'), n('a'), n('b')], [e('t', 'a'), e('a', 'b'), e('b', 'a')]),
    { code: 'DEF-02/cycle', severity: 'error', nodeId: 'a', nodeIds: ['a', 'b'], edgeIndex: 2, path: 'edges.2' },
  ],
  [
    'DEF-02/too-many-nodes',
    wf(Array.from({ length: 501 }, (_, i) => n(`n${i}`, i === 0 ? 'T' : 'S'))),
    { code: 'DEF-02/too-many-nodes', severity: 'error', nodeId: undefined, path: 'nodes' },
  ],
  [
    'DEF-02/too-many-edges',
    wf(
      [n('t', 'T'), ...Array.from({ length: 2001 }, (_, i) => n(`s${i}`, 'S'))],
      Array.from({ length: 2001 }, (_, i) => e('t', `s${i}`)),
    ),
    { code: 'DEF-02/too-many-edges', severity: 'error', nodeId: undefined, path: 'edges' },
  ],
  ['DEF-02/unknown-type', wf([n('t', 'T'), n('x', 'NOPE')]), { code: 'DEF-02/unknown-type', severity: 'error', nodeId: 'x', path: 'nodes.1.type' }],
  [
    'DEF-02/unknown-port',
    wf([n('t', 'T'), n('p'), n('s', 'S')], [e('t', 'p'), e('p', 's', 'error')]),
    { code: 'DEF-02/unknown-port', severity: 'error', nodeId: 'p', edgeIndex: 1, path: 'edges.1.sourcePort' },
  ],
  [
    'DEF-02/trigger-input',
    wf([n('t', 'T'), n('u', 'T')], [e('t', 'u')]),
    { code: 'DEF-02/trigger-input', severity: 'error', nodeId: 'u', edgeIndex: 0, path: 'edges.0.target' },
  ],
  ['DEF-02/no-trigger', wf([n('p')]), { code: 'DEF-02/no-trigger', severity: 'warning', nodeId: undefined, path: undefined }],
  [
    'DEF-02/unconnected',
    wf([n('t', 'T'), n('s', 'S'), n('p')], [e('t', 's')]),
    { code: 'DEF-02/unconnected', severity: 'warning', nodeId: 'p', path: 'nodes.2' },
  ],
  [
    'DEF-02/no-children',
    wf([n('t', 'T'), n('u', 'T'), n('s', 'S')], [e('t', 's')]),
    { code: 'DEF-02/no-children', severity: 'warning', nodeId: 'u', path: 'nodes.1' },
  ],
  [
    'DEF-02/config',
    wf([n('t', 'T'), n('p', 'P', { config: { mode: 'sideways' } })], [e('t', 'p')]),
    { code: 'DEF-02/config', severity: 'error', nodeId: 'p', path: 'nodes.1.config.mode' },
  ],
  [
    'DEF-02/policy',
    wf([n('t', 'T'), n('p', 'P', { config: { engine: { retry: { maxAttempts: 2, maxBackoffMs: 5000 } } }, timeoutSeconds: 5 })], [e('t', 'p')]),
    { code: 'DEF-02/policy', severity: 'error', nodeId: 'p', path: 'nodes.1.config.engine.retry.maxBackoffMs' },
  ],
];

describe('DEF-02 every rule names its code, node and path', () => {
  it('has a row for every rule code', () => {
    expect(RULES.map(([code]) => code).sort()).toEqual([...ValidationCode.options].sort());
  });

  it.each(RULES)('%s', (code, raw, expected) => {
    const { issues } = validateDefinition(raw, registry);
    const issue = issues.find((i) => i.code === code);
    expect(issue, JSON.stringify(issues)).toBeDefined();
    const { message: _message, ...rest } = issue!;
    expect(rest).toEqual(Object.fromEntries(Object.entries(expected).filter(([, v]) => v !== undefined)));
    expect(issue!.message.length).toBeGreaterThan(0);
  });

  it('reports an unknown policy option at the option itself', () => {
    const { issues } = validateDefinition(wf([n('t', 'T'), n('p', 'P', { config: { engine: { retries: 3, onEror: 'ROUTE' } } })], [e('t', 'p')]), registry);
    expect(issues.filter((i) => i.code === 'DEF-02/policy').map((i) => i.path)).toEqual(['nodes.1.config.engine.retries', 'nodes.1.config.engine.onEror']);
  });

  it('reports a dangling edge source at the node the edge points to', () => {
    const { issues } = validateDefinition(wf([n('t', 'T'), n('s', 'S')], [e('t', 's'), e('ghost', 's')]), registry);
    expect(issues.find((i) => i.code === 'DEF-02/unknown-node')).toMatchObject({ nodeId: 's', edgeIndex: 1, path: 'edges.1.source' });
  });
});
