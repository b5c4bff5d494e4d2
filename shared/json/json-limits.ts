/**
 * Limits on JSON values that cross a boundary (SEC-03): nesting depth (`yukta.execution.max-depth`), size
 * (`yukta.execution.max-message-bytes`) and, for request bodies, keys that name prototype machinery.
 * The walk is iterative on purpose: it is what stands between hostile input and the recursive code behind
 * it (JSON.stringify, structuredClone, canonical hashing, zod), so it must never recurse itself.
 */

/** Default `yukta.execution.max-depth`: see docs/security.md for where our own recursive code overflows. */
export const DEFAULT_MAX_DEPTH = 128;

/** Keys refused anywhere in a request body: on a plain object they would reach the prototype chain. */
export const FORBIDDEN_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

export interface JsonLimits {
  /** Most levels of objects and arrays: `{}` and `[]` are one level, `{"a": []}` two. */
  maxDepth: number;
  /** Largest size as JSON text in bytes (within a few: escapes are not counted); none when absent. */
  maxBytes?: number;
  /** Refuse `__proto__`, `constructor` and `prototype` keys (request bodies; not plugin outputs). */
  forbidPrototypeKeys?: boolean;
  /** UTF-8 length of a string; Node passes `Buffer.byteLength`, the browser gets a portable count. */
  stringBytes?: (text: string) => number;
}

/** The first limit a value breaks; `path` is dotted from the value's root (`''` is the value itself). */
export type JsonLimitProblem =
  | { kind: 'depth'; path: string; limit: number }
  | { kind: 'bytes'; path: string; limit: number }
  | { kind: 'key'; path: string; key: string };

/** Where the walk is in the value: parallel stacks, so a well-formed value costs no allocation per node. */
interface Walk {
  values: unknown[];
  depths: number[];
}

/**
 * The first limit `value` breaks, or null. One pass over the value, stopping as soon as a limit is
 * broken (a huge value costs no more than the limit to refuse); the path is worked out afterwards, by a
 * second walk that only runs for refused values.
 */
export function checkJsonLimits(value: unknown, limits: JsonLimits): JsonLimitProblem | null {
  const { broken } = measureJson(value, limits);
  return broken === null ? null : locate(value, limits, broken);
}

type Broken = 'depth' | 'bytes' | 'key';

/**
 * The JSON size of a value counted without building the text, abandoned once past `maxBytes` (the bytes
 * counted so far are then above it), with the first limit broken if any.
 */
export function measureJson(value: unknown, limits: JsonLimits): { broken: Broken | null; bytes: number } {
  const maxBytes = limits.maxBytes ?? Number.POSITIVE_INFINITY;
  const stringBytes = limits.stringBytes ?? utf8Length;
  const forbid = limits.forbidPrototypeKeys === true;
  const walk: Walk = { values: [value], depths: [0] };
  let bytes = 0;
  while (walk.values.length > 0) {
    const v = walk.values.pop();
    const depth = walk.depths.pop()!;
    if (typeof v === 'string') bytes += stringBytes(v) + 2;
    else if (v === null || typeof v !== 'object') bytes += scalarBytes(v);
    else {
      if (depth >= limits.maxDepth) return { broken: 'depth', bytes };
      const counted = Array.isArray(v) ? pushItems(walk, v, depth + 1) : pushEntries(walk, v, depth + 1, forbid, stringBytes);
      if (counted === 'key') return { broken: 'key', bytes };
      bytes += counted;
    }
    if (bytes > maxBytes) return { broken: 'bytes', bytes };
  }
  return { broken: null, bytes };
}

function pushItems(walk: Walk, items: readonly unknown[], depth: number): number {
  for (let i = items.length - 1; i >= 0; i--) {
    walk.values.push(items[i]);
    walk.depths.push(depth);
  }
  return 2 + items.length;
}

/** Pushes an object's values; returns the bytes of its keys and punctuation, or 'key' for a forbidden key. */
function pushEntries(walk: Walk, object: object, depth: number, forbid: boolean, stringBytes: (text: string) => number): number | 'key' {
  let bytes = 2;
  const keys = Object.keys(object);
  for (let i = keys.length - 1; i >= 0; i--) {
    const key = keys[i]!;
    if (forbid && FORBIDDEN_KEYS.has(key)) return 'key';
    bytes += stringBytes(key) + 4;
    walk.values.push((object as Record<string, unknown>)[key]);
    walk.depths.push(depth);
  }
  return bytes;
}

function scalarBytes(v: unknown): number {
  if (v === null || v === undefined) return 4;
  if (typeof v === 'boolean') return v ? 4 : 5;
  return String(v).length;
}

/** The slow second walk (refused values only): the same order, keeping each node's path. */
function locate(value: unknown, limits: JsonLimits, broken: Broken): JsonLimitProblem {
  const maxBytes = limits.maxBytes ?? Number.POSITIVE_INFINITY;
  const stringBytes = limits.stringBytes ?? utf8Length;
  const stack: Array<{ value: unknown; depth: number; path: string; top: string }> = [{ value, depth: 0, path: '', top: '' }];
  let bytes = 0;
  while (stack.length > 0) {
    const { value: v, depth, path, top } = stack.pop()!;
    if (typeof v === 'string') bytes += stringBytes(v) + 2;
    else if (v === null || typeof v !== 'object') bytes += scalarBytes(v);
    else {
      if (depth >= limits.maxDepth) return { kind: 'depth', path: shortPath(path), limit: limits.maxDepth };
      const entries: Array<[string, unknown]> = Array.isArray(v) ? v.map((item, i) => [String(i), item]) : Object.keys(v).map((k) => [k, (v as Record<string, unknown>)[k]]);
      bytes += Array.isArray(v) ? 2 + v.length : 2;
      for (let i = entries.length - 1; i >= 0; i--) {
        const [key, item] = entries[i]!;
        if (!Array.isArray(v)) {
          if (broken === 'key' && FORBIDDEN_KEYS.has(key)) return { kind: 'key', path: shortPath(path), key };
          bytes += stringBytes(key) + 4;
        }
        const child = path ? `${path}.${key}` : key;
        stack.push({ value: item, depth: depth + 1, path: child, top: top || key });
      }
    }
    // A size is the size of the whole value: the field named is the top-level one being read when it tipped over.
    if (bytes > maxBytes) return { kind: 'bytes', path: top, limit: maxBytes };
  }
  // Unreachable when the fast walk found a problem; kept total so a mismatch is still reported.
  return broken === 'bytes' ? { kind: 'bytes', path: '', limit: maxBytes } : { kind: 'depth', path: '', limit: limits.maxDepth };
}

/** Paths of deep values are cut after a few segments: the reader needs the field, not 128 indexes. */
const SHOWN_SEGMENTS = 6;

function shortPath(path: string): string {
  const parts = path.split('.');
  return parts.length <= SHOWN_SEGMENTS ? path : `${parts.slice(0, SHOWN_SEGMENTS).join('.')}…`;
}

/** Joins a field name and a path inside it: `payload` + `x.0` → `payload.x.0`. */
export function underField(field: string, path: string): string {
  if (!field) return path;
  return path ? `${field}.${path}` : field;
}

/** The message of a problem, naming the path and the limit (and its setting). */
export function describeJsonProblem(problem: JsonLimitProblem): string {
  const at = problem.path || 'the value';
  switch (problem.kind) {
    case 'depth':
      return `${at} nests deeper than ${problem.limit} levels (yukta.execution.max-depth)`;
    case 'bytes':
      return `${at} is larger than ${problem.limit} bytes as JSON (yukta.execution.max-message-bytes)`;
    case 'key':
      return `key ${problem.key} is not allowed at ${at}`;
  }
}

/** UTF-8 length without Buffer or TextEncoder allocations (the renderer has no Buffer). */
export function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x80) continue;
    if (c < 0x800) bytes += 1;
    else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
      bytes += 2; // a surrogate pair: 2 UTF-16 units, 4 bytes
      i++;
    } else bytes += 2;
  }
  return bytes;
}
