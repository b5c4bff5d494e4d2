import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson, contentHash } from './content-hash';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** JSON as it arrives over a transport (so -0 is 0, as JSON has it). */
const json = fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.parse(JSON.stringify(v)) as Json);

/** The same value with the keys of every object in a random order. */
function shuffled(value: Json, random: () => number): Json {
  if (Array.isArray(value)) return value.map((v) => shuffled(v, random));
  if (value === null || typeof value !== 'object') return value;
  const keys = Object.keys(value);
  for (let i = keys.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [keys[i], keys[j]] = [keys[j]!, keys[i]!];
  }
  const out: { [key: string]: Json } = {};
  for (const k of keys) Object.defineProperty(out, k, { value: shuffled(value[k]!, random), enumerable: true, writable: true, configurable: true });
  return out;
}

/** Every path to a value inside `value` (the root included). */
function paths(value: Json, prefix: Array<string | number> = []): Array<Array<string | number>> {
  const here = [prefix];
  if (Array.isArray(value)) return here.concat(...value.map((v, i) => paths(v, [...prefix, i])));
  if (value !== null && typeof value === 'object') return here.concat(...Object.keys(value).map((k) => paths(value[k]!, [...prefix, k])));
  return here;
}

function replaced(value: Json, path: Array<string | number>, next: Json): Json {
  if (path.length === 0) return next;
  const [head, ...rest] = path;
  const copy = structuredClone(value) as Record<string | number, Json>;
  Object.defineProperty(copy, head!, { value: replaced(copy[head!]!, rest, next), enumerable: true, writable: true, configurable: true });
  return copy as Json;
}

describe('DEF-01 content hash canonicality', () => {
  it('gives the same hash whatever the key order (property)', () => {
    fc.assert(
      fc.property(json, fc.integer(), (value, seed) => {
        let state = seed >>> 0;
        const random = () => (state = (state * 1664525 + 1013904223) >>> 0) / 2 ** 32;
        return contentHash(shuffled(value, random)) === contentHash(value);
      }),
      { numRuns: 300 },
    );
  });

  it('gives a different hash for any real change (property)', () => {
    fc.assert(
      fc.property(
        json.chain((value) => fc.tuple(fc.constant(value), fc.constantFrom(...paths(value)), json)),
        ([value, path, next]) => {
          const changed = replaced(value, path, next);
          fc.pre(canonicalJson(changed) !== canonicalJson(value));
          return contentHash(changed) !== contentHash(value);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('ignores whitespace and undefined properties, not array order', () => {
    const parsed = JSON.parse('{ "b" : [1, 2],\n "a": { "y": 1, "x": 2 } }') as Json;
    expect(contentHash(parsed)).toBe(contentHash({ a: { x: 2, y: 1 }, b: [1, 2], c: undefined }));
    expect(contentHash({ b: [2, 1] })).not.toBe(contentHash({ b: [1, 2] }));
  });

  it('keeps a __proto__ key as data', () => {
    const withProto = JSON.parse('{"config": {"__proto__": {"x": 1}}}') as Json;
    expect(contentHash(withProto)).not.toBe(contentHash({ config: {} }));
    expect(canonicalJson(withProto)).toBe('{"config":{"__proto__":{"x":1}}}');
  });
});
