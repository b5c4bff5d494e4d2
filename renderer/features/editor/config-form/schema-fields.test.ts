import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ENGINE_POLICY_FIELDS } from './engine-policy-fields';
import { checkFields, describeFields, fieldKeys, getAt, setAt, type FieldSpec, type JsonSchema } from './schema-fields';
import { issuesByField } from './field-issues';

// A plugin config as the registry publishes it: zod → JSON Schema (io: input).
const PluginConfig = z.strictObject({
  name: z.string().min(1).max(20),
  count: z.number().int().min(1).max(10).default(3),
  ratio: z.number().optional(),
  enabled: z.boolean().default(false),
  mode: z.enum(['merge', 'replace']).default('merge'),
  tags: z.array(z.string().min(1)).default([]),
  set: z.record(z.string(), z.unknown()).default({}),
  headers: z.record(z.string(), z.string()).optional(),
  routes: z
    .array(z.strictObject({ port: z.string().min(1), when: z.string().min(1) }))
    .max(2)
    .default([]),
  delay: z.union([z.number(), z.string()]).optional(),
});
const schema = z.toJSONSchema(PluginConfig, { io: 'input' }) as JsonSchema;
const byKey = (fields: readonly FieldSpec[]) => Object.fromEntries(fields.map((f) => [f.key, f]));

describe('STU-01 config form generator: schema → fields', () => {
  it('maps every supported shape to a field kind, with labels, defaults and limits', () => {
    const fields = byKey(describeFields(schema));
    expect(Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, f.kind]))).toEqual({
      name: 'string',
      count: 'integer',
      ratio: 'number',
      enabled: 'boolean',
      mode: 'enum',
      tags: 'string-list',
      set: 'record',
      headers: 'record',
      routes: 'object-list',
      delay: 'json',
    });
    expect(fields['name']).toMatchObject({ label: 'Name', required: true, minLength: 1, maxLength: 20 });
    expect(fields['count']).toMatchObject({ required: false, defaultValue: 3, minimum: 1, maximum: 10 });
    expect(fields['mode']).toMatchObject({ options: ['merge', 'replace'] });
    expect(fields['set']).toMatchObject({ valueKind: 'any' });
    expect(fields['headers']).toMatchObject({ valueKind: 'string' });
    expect(fields['routes']).toMatchObject({ maxItems: 2 });
  });

  it('generates the engine policy form from the shared EnginePolicy schema, rooted at engine.*', () => {
    const fields = byKey(ENGINE_POLICY_FIELDS);
    expect(Object.keys(fields)).toEqual(
      expect.arrayContaining(['retry', 'onError', 'trigger', 'elementTimeoutMs', 'deadlineMs', 'failureBudget', 'edgeBuffer']),
    );
    expect(fields['onError']).toMatchObject({ kind: 'enum', options: ['FAIL', 'CONTINUE', 'ROUTE'], label: 'On error' });
    const retry = fields['retry'];
    expect(retry?.kind).toBe('object');
    const children = retry?.kind === 'object' ? byKey(retry.children) : {};
    expect(children['maxAttempts']).toMatchObject({ path: ['engine', 'retry', 'maxAttempts'], kind: 'integer', required: true, minimum: 1, maximum: 100 });
    expect(children['retryOn']?.kind).toBe('string-list');
    // ±MAX_SAFE_INTEGER bounds of zod ints are noise, not limits.
    expect(children['backoffMs']).not.toHaveProperty('maximum');
  });
});

describe('STU-01 config form generator: fields → config', () => {
  it('sets values at paths, creating and pruning the objects around them', () => {
    let config: Record<string, unknown> = { mode: 'merge' };
    config = setAt(config, ['engine', 'retry', 'maxAttempts'], 3);
    config = setAt(config, ['engine', 'retry', 'backoffMs'], 100);
    expect(config).toEqual({ mode: 'merge', engine: { retry: { maxAttempts: 3, backoffMs: 100 } } });
    config = setAt(config, ['engine', 'retry', 'backoffMs'], undefined);
    config = setAt(config, ['engine', 'retry', 'maxAttempts'], undefined);
    expect(config).toEqual({ mode: 'merge' }); // no engine: {retry: {}} left behind
  });

  it('edits list items in place and never prunes an item', () => {
    const config = {
      routes: [
        { port: 'yes', when: 'payload.ok' },
        { port: 'no', when: 'true' },
      ],
    };
    const next = setAt(config, ['routes', '1', 'when'], 'payload.n > 2');
    expect(next).toEqual({
      routes: [
        { port: 'yes', when: 'payload.ok' },
        { port: 'no', when: 'payload.n > 2' },
      ],
    });
    expect(config.routes[1]!.when).toBe('true'); // the input is not mutated
    expect(setAt(next, ['routes', '0', 'port'], undefined)).toEqual({ routes: [{ when: 'payload.ok' }, { port: 'no', when: 'payload.n > 2' }] });
    expect(getAt(next, ['routes', '1', 'port'])).toBe('no');
  });
});

describe('STU-01 / DEF-02 errors per field', () => {
  const fields = describeFields(schema);

  it('checks each field instantly and names the field', () => {
    const errors = checkFields(fields, { count: 0, ratio: 'x', mode: 'other', tags: ['a', ''], headers: { a: 1 }, routes: [{ port: 'a' }, {}, {}] });
    expect(Object.fromEntries(errors)).toEqual({
      name: 'required',
      count: 'must be at least 1',
      ratio: 'must be a number',
      mode: 'must be one of merge, replace',
      tags: 'items must not be empty',
      headers: 'values must be text',
      routes: 'at most 2 items',
    });
    const items = checkFields(fields, { name: 'n', routes: [{ port: 'a' }, { when: '' }] });
    expect(Object.fromEntries(items)).toEqual({ 'routes.0.when': 'required', 'routes.1.port': 'required', 'routes.1.when': 'must not be empty' });
  });

  it('maps DEF-02 issue paths of a node to its fields; others stay for the problems list', () => {
    const keys = fieldKeys(ENGINE_POLICY_FIELDS, {}, new Set(['timeoutSeconds']));
    const { byField, rest } = issuesByField(
      [
        {
          code: 'DEF-02/policy',
          severity: 'error',
          message: 'maxBackoffMs (6000) must be below the node timeout (5000 ms)',
          nodeId: 'n',
          path: 'nodes.3.config.engine.retry.maxBackoffMs',
        },
        { code: 'DEF-02/schema', severity: 'error', message: 'Too small', nodeId: 'n', path: 'nodes.3.timeoutSeconds' },
        { code: 'DEF-02/cycle', severity: 'error', message: 'cycle', nodeId: 'n', path: 'edges' },
      ],
      keys,
    );
    expect(byField.get('engine.retry.maxBackoffMs')).toEqual({
      code: 'DEF-02/policy',
      message: 'maxBackoffMs (6000) must be below the node timeout (5000 ms)',
    });
    expect(byField.get('timeoutSeconds')?.code).toBe('DEF-02/schema');
    expect(rest.map((i) => i.code)).toEqual(['DEF-02/cycle']);
  });
});
