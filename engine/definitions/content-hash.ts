import { createHash } from 'node:crypto';

/** JSON with object keys sorted at every level, so key order and whitespace never change the text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value));
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') {
    // A null-prototype object keeps a `__proto__` key as data; on `{}` the assignment would be lost
    // and two different graphs would hash alike.
    const out = Object.create(null) as Record<string, unknown>;
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v !== undefined) out[key] = sortKeys(v);
    }
    return out;
  }
  return value;
}

/** The definition version (DEF-01): SHA-256 of the canonical graph, hex. */
export function contentHash(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex');
}
