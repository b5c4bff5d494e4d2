import { assertNever } from '../../../../shared/assert-never';

/**
 * Our own small JSON-Schema → form generator for plugin configs and the engine policy.
 *
 * Why not @rjsf/core: its validator (ajv) compiles every schema with `new Function`, which the studio's
 * Content-Security-Policy (`script-src 'self'`, no 'unsafe-eval') forbids, and the schemas we receive are a
 * small, known subset — what zod's `toJSONSchema` emits for plugin configs: objects, strings, numbers,
 * integers, booleans, enums, arrays of strings, arrays of small objects and records. Anything else (unions,
 * nested arrays…) falls back to a JSON editor for that field. Authoritative validation stays where it is: the plugin schema on the host (DEF-02/config) and
 * the shared graph and policy rules live in the renderer; the checks here only give instant per-field hints.
 */
export type JsonSchema = Readonly<Record<string, unknown>>;

export type FieldSpec =
  | (FieldBase & { kind: 'string'; minLength?: number; maxLength?: number; pattern?: string })
  | (FieldBase & { kind: 'number' | 'integer'; minimum?: number; maximum?: number; exclusiveMinimum?: number; exclusiveMaximum?: number })
  | (FieldBase & { kind: 'boolean' })
  | (FieldBase & { kind: 'enum'; options: readonly string[] })
  | (FieldBase & { kind: 'string-list'; minLength?: number; options?: readonly string[] })
  | (FieldBase & { kind: 'record'; valueKind: 'string' | 'any' })
  | (FieldBase & { kind: 'object'; children: readonly FieldSpec[] })
  /** A list of small objects (ROUTER's routes): one sub-form per item, built by `itemFields`. */
  | (FieldBase & { kind: 'object-list'; itemSchema: JsonSchema; maxItems?: number })
  | (FieldBase & { kind: 'json' });

export interface FieldBase {
  /** Property name. */
  key: string;
  /** Path from the config root, e.g. `['engine', 'retry', 'maxAttempts']`. */
  path: readonly string[];
  label: string;
  description?: string;
  required: boolean;
  defaultValue?: unknown;
  /** Values to offer while typing: the pools of the connected workers (`engine.placement.pool`, SCL-01). */
  suggest?: 'worker-pools';
}

/** Dotted key of a field path, as used in test ids and error maps (`engine.retry.maxAttempts`). */
export const pathKey = (path: readonly string[]): string => path.join('.');

/** The fields of an object schema, in declaration order; `prefix` roots them inside a larger config. */
export function describeFields(schema: JsonSchema, prefix: readonly string[] = []): FieldSpec[] {
  const properties = asRecord(schema['properties']);
  if (!properties) return [];
  const required = new Set(Array.isArray(schema['required']) ? (schema['required'] as unknown[]).map(String) : []);
  return Object.entries(properties).map(([key, child]) => describeField(key, asRecord(child) ?? {}, [...prefix, key], required.has(key)));
}

function describeField(key: string, schema: JsonSchema, path: string[], required: boolean): FieldSpec {
  const base: FieldBase = { key, path, label: typeof schema['title'] === 'string' ? schema['title'] : humanize(key), required };
  if (typeof schema['description'] === 'string') base.description = schema['description'];
  if (schema['default'] !== undefined) base.defaultValue = schema['default'];
  const enumValues = stringEnum(schema);
  if (enumValues) return { ...base, kind: 'enum', options: enumValues };
  switch (schema['type']) {
    case 'string':
      return {
        ...base,
        kind: 'string',
        ...pick(schema, ['minLength', 'maxLength']),
        ...(typeof schema['pattern'] === 'string' ? { pattern: schema['pattern'] } : {}),
      };
    case 'number':
    case 'integer':
      return { ...base, kind: schema['type'], ...pick(schema, ['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum']) };
    case 'boolean':
      return { ...base, kind: 'boolean' };
    case 'array':
      return describeArray(base, schema);
    case 'object':
      return describeObject(base, schema, path);
    default:
      return { ...base, kind: 'json' };
  }
}

function describeArray(base: FieldBase, schema: JsonSchema): FieldSpec {
  const items = asRecord(schema['items']);
  if (items?.['type'] === 'object' && asRecord(items['properties'])) {
    const spec: FieldSpec = { ...base, kind: 'object-list', itemSchema: items };
    return typeof schema['maxItems'] === 'number' ? { ...spec, maxItems: schema['maxItems'] } : spec;
  }
  if (items?.['type'] !== 'string' && !stringEnum(items ?? {})) return { ...base, kind: 'json' };
  const spec: FieldSpec = { ...base, kind: 'string-list', ...pick(items ?? {}, ['minLength']) };
  const options = stringEnum(items ?? {});
  return options ? { ...spec, options } : spec;
}

function describeObject(base: FieldBase, schema: JsonSchema, path: string[]): FieldSpec {
  if (asRecord(schema['properties'])) return { ...base, kind: 'object', children: describeFields(schema, path) };
  const values = schema['additionalProperties'];
  const valueSchema = asRecord(values);
  if (valueSchema && Object.keys(valueSchema).length === 0) return { ...base, kind: 'record', valueKind: 'any' };
  if (valueSchema?.['type'] === 'string' && !stringEnum(valueSchema)) return { ...base, kind: 'record', valueKind: 'string' };
  return { ...base, kind: 'json' };
}

/** The sub-form of item `index` of an object list; its paths run through the index (`routes.0.port`). */
export function itemFields(field: Extract<FieldSpec, { kind: 'object-list' }>, index: number): FieldSpec[] {
  return describeFields(field.itemSchema, [...field.path, String(index)]);
}

/** Instant per-field checks of a config against the fields (dotted path → message); empty when all pass. */
export function checkFields(fields: readonly FieldSpec[], config: unknown): Map<string, string> {
  const errors = new Map<string, string>();
  const visit = (list: readonly FieldSpec[], value: unknown) => {
    for (const field of list) {
      const v = asRecord(value)?.[field.key];
      const problem = checkValue(field, v);
      if (problem) errors.set(pathKey(field.path), problem);
      else if (field.kind === 'object' && v !== undefined) visit(field.children, v);
      else if (field.kind === 'object-list' && Array.isArray(v)) v.forEach((item, i) => visit(itemFields(field, i), item));
    }
  };
  visit(fields, config);
  return errors;
}

/** Every field key of a form for a config, list items included (to match issue paths to fields). */
export function fieldKeys(fields: readonly FieldSpec[], config: unknown, into = new Set<string>()): Set<string> {
  for (const field of fields) {
    into.add(pathKey(field.path));
    if (field.kind === 'object') fieldKeys(field.children, config, into);
    const items = field.kind === 'object-list' ? getAt(config, field.path) : undefined;
    if (field.kind === 'object-list' && Array.isArray(items)) items.forEach((_, i) => fieldKeys(itemFields(field, i), config, into));
  }
  return into;
}

/** Why a value does not fit its field, or null. */
export function checkValue(field: FieldSpec, value: unknown): string | null {
  if (value === undefined) return field.required ? 'required' : null;
  switch (field.kind) {
    case 'string':
      if (typeof value !== 'string') return 'must be text';
      if (field.minLength !== undefined && value.length < field.minLength)
        return field.minLength === 1 ? 'must not be empty' : `must be at least ${field.minLength} characters`;
      if (field.maxLength !== undefined && value.length > field.maxLength) return `must be at most ${field.maxLength} characters`;
      if (field.pattern !== undefined && !safeRegExp(field.pattern)?.test(value)) return `must match ${field.pattern}`;
      return null;
    case 'number':
    case 'integer':
      return checkNumber(field, value);
    case 'boolean':
      return typeof value === 'boolean' ? null : 'must be true or false';
    case 'enum':
      return typeof value === 'string' && field.options.includes(value) ? null : `must be one of ${field.options.join(', ')}`;
    case 'string-list':
      if (!Array.isArray(value) || value.some((v) => typeof v !== 'string')) return 'must be a list of text items';
      if (field.options && value.some((v) => !field.options!.includes(v as string))) return `items must be among ${field.options.join(', ')}`;
      return field.minLength && value.some((v) => (v as string).length < field.minLength!) ? 'items must not be empty' : null;
    case 'record':
      if (!asRecord(value)) return 'must be an object of named values';
      return field.valueKind === 'string' && Object.values(value as object).some((v) => typeof v !== 'string') ? 'values must be text' : null;
    case 'object':
      return asRecord(value) ? null : 'must be an object';
    case 'object-list':
      if (!Array.isArray(value) || value.some((v) => !asRecord(v))) return 'must be a list of objects';
      return field.maxItems !== undefined && value.length > field.maxItems ? `at most ${field.maxItems} items` : null;
    case 'json':
      return null;
    default:
      return assertNever(field, 'field');
  }
}

function checkNumber(field: Extract<FieldSpec, { kind: 'number' | 'integer' }>, value: unknown): string | null {
  if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a number';
  if (field.kind === 'integer' && !Number.isInteger(value)) return 'must be a whole number';
  if (field.minimum !== undefined && value < field.minimum) return `must be at least ${field.minimum}`;
  if (field.maximum !== undefined && value > field.maximum) return `must be at most ${field.maximum}`;
  if (field.exclusiveMinimum !== undefined && value <= field.exclusiveMinimum) return `must be above ${field.exclusiveMinimum}`;
  if (field.exclusiveMaximum !== undefined && value >= field.exclusiveMaximum) return `must be below ${field.exclusiveMaximum}`;
  return null;
}

/** The value at a path (object keys, or indices inside lists), or undefined. */
export function getAt(root: unknown, path: readonly string[]): unknown {
  let value = root;
  for (const key of path) value = Array.isArray(value) ? value[Number(key)] : asRecord(value)?.[key];
  return value;
}

/**
 * A copy of `root` with `value` at `path` (intermediate objects created). `undefined` removes the key, and
 * objects left empty by that removal are removed too, so clearing `engine.retry.backoffMs` does not leave
 * `engine: {retry: {}}` behind.
 */
export function setAt(root: Readonly<Record<string, unknown>>, path: readonly string[], value: unknown): Record<string, unknown> {
  return setIn(root, path, value) as Record<string, unknown>;
}

function setIn(root: unknown, path: readonly string[], value: unknown): unknown {
  const [key, ...rest] = path;
  if (Array.isArray(root) && key !== undefined) {
    // A list item is replaced, never pruned: clearing a route's field keeps the route.
    const copy = [...(root as unknown[])];
    copy[Number(key)] = rest.length === 0 ? value : setIn(copy[Number(key)] ?? {}, rest, value);
    return copy;
  }
  const copy: Record<string, unknown> = { ...asRecord(root) };
  if (key === undefined) return copy;
  const child = copy[key];
  const next = rest.length === 0 ? value : setIn(Array.isArray(child) ? child : (asRecord(child) ?? {}), rest, value);
  const emptied = rest.length > 0 && value === undefined && asRecord(next) !== undefined && Object.keys(next as object).length === 0;
  if (next === undefined || emptied) delete copy[key];
  else copy[key] = next;
  return copy;
}

export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function stringEnum(schema: JsonSchema): string[] | null {
  const values = schema['enum'];
  return Array.isArray(values) && values.length > 0 && values.every((v) => typeof v === 'string') ? (values as string[]) : null;
}

function pick(schema: JsonSchema, keys: readonly string[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const k of keys) {
    const v = schema[k];
    // zod writes ±MAX_SAFE_INTEGER as the bounds of every int: not a limit worth showing.
    if (typeof v === 'number' && Math.abs(v) < Number.MAX_SAFE_INTEGER) out[k] = v;
  }
  return out;
}

function humanize(key: string): string {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

function safeRegExp(pattern: string): RegExp | null {
  try {
    return new RegExp(pattern, 'u');
  } catch {
    return null;
  }
}
