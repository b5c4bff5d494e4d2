import { describe, expect, it } from 'vitest';
import { BadInputError } from '../../runtime/errors';
import { renderDeep, renderTemplate } from './template';

const scope = {
  payload: { name: 'Ada', n: '42', f: '2.5', ok: 'true', nested: { a: [1, 2] }, obj: '{"x":1}' },
  metadata: { source: 'api' },
  context: { executionId: 'e1' },
};

describe('SEC-02 templates', () => {
  it('renders text with several references', () => {
    expect(renderTemplate('Hi ${payload.name} from ${metadata.source} (${context.executionId})', scope)).toBe('Hi Ada from api (e1)');
  });

  it('keeps untyped whole references as text and converts typed ones', () => {
    expect(renderTemplate('${payload.n}', scope)).toBe('42');
    expect(renderTemplate('${payload.n:int}', scope)).toBe(42);
    expect(renderTemplate('${payload.f:float}', scope)).toBe(2.5);
    expect(renderTemplate('${payload.ok:bool}', scope)).toBe(true);
    expect(renderTemplate('${payload.obj:json}', scope)).toEqual({ x: 1 });
    expect(renderTemplate('${payload.nested}', scope)).toBe('{"a":[1,2]}');
  });

  it('renders missing values as empty text', () => {
    expect(renderTemplate('[${payload.missing.deep}]', scope)).toBe('[]');
  });

  it('cannot reach prototypes or globals', () => {
    expect(() => renderTemplate('${payload.__proto__}', scope)).toThrow(BadInputError);
    expect(() => renderTemplate('${payload.constructor}', scope)).toThrow(BadInputError);
    expect(() => renderTemplate('${process.env.HOME}', scope)).toThrow(/must start with payload/);
    expect(renderTemplate('${payload.toString}', scope)).toBe('');
  });

  it('reports a bad typed value as bad input naming the reference', () => {
    expect(() => renderTemplate('${payload.name:int}', scope)).toThrow(/payload\.name:int/);
  });

  it('renders every string of a nested value', () => {
    expect(renderDeep({ a: ['${payload.n:int}', { b: 'x${payload.name}' }], c: 3 }, scope)).toEqual({ a: [42, { b: 'xAda' }], c: 3 });
  });
});
