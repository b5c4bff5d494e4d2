import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Identifier, identifierProblem, MAX_IDENTIFIER_LENGTH } from './identifier';

describe('DEF-02 identifiers', () => {
  it.each([
    ['a/b', 'path separator'],
    ['a\\b', 'path separator'],
    ['a..b', '".."'],
    ['a\u0000b', 'control'],
    ['x'.repeat(MAX_IDENTIFIER_LENGTH + 1), 'at most'],
    ['', 'empty'],
    [' a', 'whitespace'],
  ])('refuses %j', (value, why) => {
    expect(identifierProblem(value)).toContain(why);
    expect(Identifier.safeParse(value).success).toBe(false);
  });

  it('accepts ordinary names', () => {
    for (const ok of ['triage', 'order-42', 'My Workflow', 'a.b', 'ünïcödé']) expect(identifierProblem(ok)).toBeNull();
  });

  it('never accepts a value containing a separator (property)', () => {
    fc.assert(fc.property(fc.string(), fc.string(), (a, b) => identifierProblem(`${a}/${b}`) !== null));
  });
});
