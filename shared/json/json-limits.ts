import { assertNever } from '../assert-never';

/**
 * Limits on JSON values that cross a boundary (SEC-03): nesting depth (`yukta.execution.max-depth`), size
 * (`yukta.execution.max-message-bytes`) and, for request bodies, keys that name prototype machinery.
 * The walks are iterative on purpose: they are what stands between hostile input and the recursive code
 * behind them (JSON.stringify, structuredClone, canonical hashing, zod), so they must never recurse.
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
  /** The value's own path, put in front of the paths reported (`payload` for a start payload). */
  at?: string;
}

/** The first limit a value breaks; `path` is dotted from the value's root (`''` is the value itself). */
export type JsonLimitProblem =
  { kind: 'depth'; path: string; limit: number } | { kind: 'bytes'; path: string; limit: number } | { kind: 'key'; path: string; key: string };

/**
 * The first limit `value` breaks, or null. The common case — a value well within every limit — costs one
 * quick pass that counts no exact sizes: strings at 3 bytes per UTF-16 unit and numbers at 24 bytes are an
 * upper bound of their JSON size. Only a value that may break a limit is walked again, exactly and with
 * paths, to name where.
 */
export function checkJsonLimits(value: unknown, limits: JsonLimits): JsonLimitProblem | null {
  return mayBreak(value, limits) ? walkExact(value, limits, true).problem : null;
}

/** Longest JSON text of a number (`-1.7976931348623157e+308`). */
const MAX_NUMBER_CHARS = 24;

function scalarBound(v: unknown): number {
  if (typeof v === 'string') return 3 * v.length + 2;
  if (typeof v === 'number' || typeof v === 'bigint') return MAX_NUMBER_CHARS;
  return 5; // true, false, null
}

/**
 * The quick pass: false when the value surely keeps every limit. Scalars are counted where they are
 * found instead of being pushed; objects go on two parallel stacks (value, depth), no allocation per leaf.
 */
function mayBreak(value: unknown, limits: JsonLimits): boolean {
  if (value === null || typeof value !== 'object') return scalarBound(value) > (limits.maxBytes ?? Number.POSITIVE_INFINITY);
  const maxBytes = limits.maxBytes ?? Number.POSITIVE_INFINITY;
  const forbid = limits.forbidPrototypeKeys === true;
  const maxDepth = limits.maxDepth;
  const values: object[] = [value];
  const depths: number[] = [0];
  let bound = 0;
  while (values.length > 0) {
    const v = values.pop()!;
    const depth = depths.pop()!;
    if (depth >= maxDepth) return true;
    if (Array.isArray(v)) {
      bound += 2 + v.length;
      for (let i = 0; i < v.length; i++) {
        const item: unknown = v[i];
        if (item !== null && typeof item === 'object') {
          values.push(item);
          depths.push(depth + 1);
        } else bound += scalarBound(item);
      }
    } else {
      bound += 2;
      // for-in, not Object.keys: no array per object. It also sees inherited enumerable keys (never on
      // parsed JSON), which can only make the bound larger, never let a value through.
      for (const key in v) {
        if (forbid && (key === '__proto__' || key === 'constructor' || key === 'prototype')) return true;
        bound += 3 * key.length + 4;
        const item = (v as Record<string, unknown>)[key];
        if (item !== null && typeof item === 'object') {
          values.push(item);
          depths.push(depth + 1);
        } else bound += scalarBound(item);
      }
    }
    if (bound > maxBytes) return true;
  }
  return false;
}

interface Frame {
  value: unknown;
  depth: number;
  path: string;
  /** The top-level field the value is in: a size is the whole value's, so that field is named. */
  top: string;
}

/**
 * The exact pass: UTF-8 sizes, each node's path, stopping at the first problem (or, without `report`,
 * once the size is past `maxBytes`). Only runs for values the quick pass could not clear.
 */
function walkExact(value: unknown, limits: JsonLimits, report: boolean): { problem: JsonLimitProblem | null; bytes: number } {
  const maxBytes = limits.maxBytes ?? Number.POSITIVE_INFINITY;
  const stringBytes = limits.stringBytes ?? utf8Length;
  const forbid = report && limits.forbidPrototypeKeys === true;
  const root = limits.at ?? '';
  const stack: Frame[] = [{ value, depth: 0, path: root, top: root }];
  let bytes = 0;
  while (stack.length > 0) {
    const { value: v, depth, path, top } = stack.pop()!;
    if (typeof v === 'string') bytes += stringBytes(v) + 2;
    else if (v === null || typeof v !== 'object') bytes += exactScalarBytes(v);
    else {
      if (depth >= limits.maxDepth) return { problem: { kind: 'depth', path: shortPath(path), limit: limits.maxDepth }, bytes };
      const isArray = Array.isArray(v);
      const keys = isArray ? null : Object.keys(v);
      const count = isArray ? v.length : keys!.length;
      bytes += isArray ? 2 + count : 2;
      for (let i = count - 1; i >= 0; i--) {
        const key = isArray ? String(i) : keys![i]!;
        if (!isArray) {
          if (forbid && FORBIDDEN_KEYS.has(key)) return { problem: { kind: 'key', path: shortPath(path), key }, bytes };
          bytes += stringBytes(key) + 4;
        }
        const item: unknown = isArray ? (v as unknown[])[i] : (v as Record<string, unknown>)[key];
        stack.push({ value: item, depth: depth + 1, path: path ? `${path}.${key}` : key, top: top || key });
      }
    }
    if (bytes > maxBytes) return { problem: { kind: 'bytes', path: top, limit: maxBytes }, bytes };
  }
  return { problem: null, bytes };
}

function exactScalarBytes(v: unknown): number {
  if (v === null || v === undefined) return 4;
  if (typeof v === 'boolean') return v ? 4 : 5;
  return String(v).length;
}

/**
 * The JSON size of a value in UTF-8 bytes (within a few: escapes are not counted), counted without
 * building the text and abandoned once past `limit` (a huge value costs no more than the limit to
 * measure): a number above `limit` means it stopped early.
 */
export function jsonBytes(value: unknown, limit: number, stringBytes?: (text: string) => number): number {
  return walkExact(value, { maxDepth: Number.POSITIVE_INFINITY, maxBytes: limit, ...(stringBytes ? { stringBytes } : {}) }, false).bytes;
}

/** Paths of deep values are cut after a few segments: the reader needs the field, not 128 indexes. */
const SHOWN_SEGMENTS = 6;

function shortPath(path: string): string {
  const parts = path.split('.');
  return parts.length <= SHOWN_SEGMENTS ? path : `${parts.slice(0, SHOWN_SEGMENTS).join('.')}…`;
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
    default:
      return assertNever(problem, 'JSON problem');
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
