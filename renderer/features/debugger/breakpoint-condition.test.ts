import { describe, expect, it } from 'vitest';
import { formatCondition, parseCondition } from './breakpoint-condition';

describe('STU-04 breakpoint condition', () => {
  it('reads payload.path == value and metadata.key == value, the value as the engine compares it (text)', () => {
    expect(parseCondition('payload.order.id == 42')).toEqual({ ok: true, condition: { path: 'payload.order.id', equals: '42' } });
    expect(parseCondition('  metadata.region==eu ')).toEqual({ ok: true, condition: { path: 'metadata.region', equals: 'eu' } });
    expect(parseCondition('payload.name == "Ada Lovelace"')).toEqual({ ok: true, condition: { path: 'payload.name', equals: 'Ada Lovelace' } });
    expect(parseCondition('payload == {"a": 1, "b": [true]}')).toEqual({ ok: true, condition: { path: 'payload', equals: '{"a":1,"b":[true]}' } });
    expect(parseCondition('payload.x == ""')).toEqual({ ok: true, condition: { path: 'payload.x', equals: '' } });
    expect(parseCondition('   ')).toEqual({ ok: true, condition: null });
  });

  it.each([
    ['payload.n = 2', '"=="'],
    ['payload.n === 2', 'two equals'],
    ['== 2', 'no path'],
    ['body.n == 2', 'must start with payload or metadata'],
    ['metadata == x', 'Name a metadata key'],
    ['metadata.a.b == x', 'one name'],
    ['payload..n == 2', 'empty part'],
    ['payload.n. == 2', 'empty part'],
    ['payload.my field == 2', 'space'],
    ['payload.n ==', 'Give the value'],
    ['payloads.n == 1', 'not a valid path'],
  ])('refuses %s, saying why', (text, why) => {
    const parsed = parseCondition(text);
    expect(parsed.ok).toBe(false);
    expect(parsed.ok ? '' : parsed.error).toContain(why);
  });

  it('formats a condition so that reading it back gives the same condition', () => {
    for (const equals of ['42', 'Ada', '', ' padded ', '"quoted"', '{"a":1}', 'true', 'null', '[1']) {
      const condition = { path: 'payload.v', equals };
      expect(parseCondition(formatCondition(condition))).toEqual({ ok: true, condition });
    }
  });
});
