import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkJsonLimits, describeJsonProblem, utf8Length } from './json-limits';

/** `[[[…]]]` with `levels` arrays, built without recursion. */
function nested(levels: number): unknown {
  let value: unknown = [];
  for (let i = 1; i < levels; i++) value = [value];
  return value;
}

describe('SEC-03 JSON limits: nesting depth', () => {
  it('counts every object and array as one level', () => {
    expect(checkJsonLimits({}, { maxDepth: 1 })).toBeNull();
    expect(checkJsonLimits({ a: {} }, { maxDepth: 1 })).toEqual({ kind: 'depth', path: 'a', limit: 1 });
    expect(checkJsonLimits({ a: [1, { b: 2 }] }, { maxDepth: 3 })).toBeNull();
    expect(checkJsonLimits({ a: [1, { b: [] }] }, { maxDepth: 3 })).toEqual({ kind: 'depth', path: 'a.1.b', limit: 3 });
    expect(checkJsonLimits('text', { maxDepth: 0 })).toBeNull();
  });

  it('refuses 100,000 levels without overflowing the stack, naming a short path', () => {
    const problem = checkJsonLimits({ payload: { x: nested(100_000) } }, { maxDepth: 129 });
    expect(problem).toEqual({ kind: 'depth', path: 'payload.x.0.0.0.0…', limit: 129 });
    expect(describeJsonProblem(problem!)).toBe('payload.x.0.0.0.0… nests deeper than 129 levels (yukta.execution.max-depth)');
  });

  it('accepts exactly the limit and refuses one more', () => {
    expect(checkJsonLimits(nested(128), { maxDepth: 128 })).toBeNull();
    expect(checkJsonLimits(nested(129), { maxDepth: 128 })?.kind).toBe('depth');
  });

  it('stops a cycle at the depth limit instead of walking forever', () => {
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(checkJsonLimits(cycle, { maxDepth: 10 })?.kind).toBe('depth');
  });
});

describe('SEC-03 JSON limits: size', () => {
  it('measures UTF-8 bytes of the JSON text', () => {
    expect(utf8Length('aé€😀')).toBe(1 + 2 + 3 + 4);
    expect(utf8Length('\ud800')).toBe(3); // a lone surrogate counts as UTF-8's 3-byte replacement (JSON escapes it: a few bytes more)
    // {"a":"xx"} is 10 bytes of JSON: the walk counts 2 braces + key "a" with quotes and colon + "xx" with quotes.
    expect(checkJsonLimits({ a: 'xx' }, { maxDepth: 5, maxBytes: 11 })).toBeNull();
    expect(checkJsonLimits({ a: 'x'.repeat(20) }, { maxDepth: 5, maxBytes: 11 })).toEqual({ kind: 'bytes', path: 'a', limit: 11 });
  });

  it('measures exactly when the quick upper bound (3 bytes a character, 24 a number) cannot clear a value', () => {
    const ascii = { text: 'a'.repeat(900) }; // bound ≈ 2,700 bytes, exact 911
    expect(checkJsonLimits(ascii, { maxDepth: 5, maxBytes: 1000 })).toBeNull();
    const numbers = Array.from({ length: 100 }, (_, i) => i); // bound 2,502, exact 392
    expect(checkJsonLimits(numbers, { maxDepth: 5, maxBytes: 500 })).toBeNull();
    expect(checkJsonLimits({ text: 'é'.repeat(600) }, { maxDepth: 5, maxBytes: 1000 })).toEqual({ kind: 'bytes', path: 'text', limit: 1000 });
  });

  it('names the top-level field that tipped the size over', () => {
    const value = { small: 'ok', big: ['a'.repeat(600), 'b'.repeat(600)] };
    expect(checkJsonLimits(value, { maxDepth: 5, maxBytes: 1000 })).toEqual({ kind: 'bytes', path: 'big', limit: 1000 });
  });

  it('agrees with JSON.stringify within a few bytes on random JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
        const exact = new TextEncoder().encode(JSON.stringify(value)).length;
        // Just over the size: refused; a generous margin over it: accepted (escapes and number forms are approximate).
        expect(checkJsonLimits(value, { maxDepth: 10, maxBytes: exact * 2 + 16 })).toBeNull();
        if (exact > 64) expect(checkJsonLimits(value, { maxDepth: 10, maxBytes: Math.floor(exact / 3) })?.kind).toBe('bytes');
      }),
      { numRuns: 300 },
    );
  });
});

describe('SEC-03 JSON limits: prototype keys in request bodies', () => {
  it('refuses __proto__, constructor and prototype at any depth, naming where', () => {
    const body = JSON.parse('{"payload":{"x":{"ok":1,"__proto__":{"polluted":true}}}}') as unknown;
    expect(checkJsonLimits(body, { maxDepth: 10, forbidPrototypeKeys: true })).toEqual({ kind: 'key', path: 'payload.x', key: '__proto__' });
    expect(describeJsonProblem({ kind: 'key', path: 'payload.x', key: '__proto__' })).toBe('key __proto__ is not allowed at payload.x');
    expect(checkJsonLimits({ a: [{ constructor: 1 }] }, { maxDepth: 10, forbidPrototypeKeys: true })).toEqual({ kind: 'key', path: 'a.0', key: 'constructor' });
    expect(checkJsonLimits({ prototype: 1 }, { maxDepth: 10, forbidPrototypeKeys: true })).toEqual({ kind: 'key', path: '', key: 'prototype' });
    expect(describeJsonProblem({ kind: 'key', path: '', key: 'prototype' })).toBe('key prototype is not allowed at the value');
  });

  it('leaves such keys alone where they are data (plugin outputs)', () => {
    expect(checkJsonLimits({ constructor: 'Ada' }, { maxDepth: 10 })).toBeNull();
  });
});
