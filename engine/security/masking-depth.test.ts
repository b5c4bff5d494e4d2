import { describe, expect, it } from 'vitest';
import { SECRET_MASK } from '../../shared/api/security.schema';
import { DEFAULT_MAX_DEPTH } from '../../shared/json/json-limits';
import { SecretRedactor } from './secrets';

function nested(levels: number, leaf: unknown): unknown {
  let value = leaf;
  for (let i = 0; i < levels; i++) value = { a: value };
  return value;
}

function leafOf(value: unknown): unknown {
  let v = value;
  while (v !== null && typeof v === 'object') v = (v as { a: unknown }).a;
  return v;
}

describe('SEC-02 masking reaches as deep as any message the limits let through', () => {
  it(`masks a secret at the bottom of a value nested ${DEFAULT_MAX_DEPTH} levels (yukta.execution.max-depth) and twice that`, () => {
    const redactor = new SecretRedactor();
    redactor.add('sk-canary-123456');
    for (const levels of [DEFAULT_MAX_DEPTH, 2 * DEFAULT_MAX_DEPTH - 1]) {
      expect(leafOf(redactor.redact(nested(levels, 'key sk-canary-123456')))).toBe(`key ${SECRET_MASK}`);
    }
  });
});
