import { z } from 'zod';

/** The unit column of the settings table: how a value is written and shown. */
export type SettingUnit = 'count' | 'number' | 'duration' | 'bytes' | 'boolean' | 'choice' | 'text' | 'list' | 'json';

/**
 * One kind of setting value (CFG-01): the schema a value from settings.json or `settings.set` passes, how a
 * value written as text (an environment variable, a `--set` flag) becomes that JSON value, what it accepts
 * in words (for refusals) and how it is shown (`30s`, `10MiB`, `QUEUE`).
 */
export interface SettingValue<T> {
  readonly unit: SettingUnit;
  readonly schema: z.ZodType<T>;
  /** What a refused value should have been, e.g. `a whole number from 0 to 100`. */
  readonly accepts: string;
  fromText(text: string): unknown;
  /** Takes unknown so that any row can show any stored value; a value of the wrong type is shown as JSON. */
  show(value: unknown): string;
}

/** A 32-bit count of milliseconds (just under 24.8 days): the longest timer a duration may arm. */
export const MAX_DURATION_MS = 2 ** 31 - 1;

const DURATION_UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };
const SIZE_UNITS: Record<string, number> = { B: 1, KiB: 1024, MiB: 1024 ** 2, GiB: 1024 ** 3, kB: 1000, KB: 1000, MB: 1000 ** 2, GB: 1000 ** 3 };
const DURATION = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)$/;
const SIZE = /^(\d+(?:\.\d+)?)\s*(B|KiB|MiB|GiB|kB|KB|MB|GB)$/;
const DIGITS = /^\d+$/;
const INTEGER = /^-?\d+$/;
const DECIMAL = /^-?\d+(?:\.\d+)?$/;

/** A whole number ≥ 0, or digits, or a number with one of `units` (e.g. `30s`, `10MiB`) → the base unit; null otherwise. */
function parseWithUnit(value: unknown, pattern: RegExp, units: Readonly<Record<string, number>>): number | null {
  if (typeof value === 'number') return Number.isInteger(value) && value >= 0 ? value : null;
  if (typeof value !== 'string') return null;
  const text = value.trim();
  if (DIGITS.test(text)) return Number(text);
  const m = pattern.exec(text);
  return m ? Math.round(Number(m[1]) * units[m[2]!]!) : null;
}

/** `30s`, `10m`, `1h`, `250ms`, `2d`, or a plain number of milliseconds → milliseconds; null when it is neither. */
export function parseDuration(value: unknown): number | null {
  return parseWithUnit(value, DURATION, DURATION_UNITS);
}

/** `10MiB`, `512KiB`, `1GB`, or a plain number of bytes → bytes; null when it is neither. */
export function parseSize(value: unknown): number | null {
  return parseWithUnit(value, SIZE, SIZE_UNITS);
}

/** Milliseconds as the seeds write them: `30s`, `10m`, `1h`, `250ms`; `0` stays `0`. */
export function showDuration(ms: number): string {
  if (ms === 0) return '0';
  for (const [unit, size] of [
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1000],
  ] as const) {
    if (ms % size === 0) return `${ms / size}${unit}`;
  }
  return `${ms}ms`;
}

/** Bytes as `10MiB`, `512KiB`, or the plain number when no binary unit divides it. */
export function showSize(bytes: number): string {
  for (const [unit, size] of [
    ['GiB', 1024 ** 3],
    ['MiB', 1024 ** 2],
    ['KiB', 1024],
  ] as const) {
    if (bytes !== 0 && bytes % size === 0) return `${bytes / size}${unit}`;
  }
  return String(bytes);
}

const asNumberText =
  (pattern: RegExp) =>
  (text: string): unknown =>
    pattern.test(text.trim()) ? Number(text.trim()) : text;
const sameText = (text: string): unknown => text;
const asJson = (value: unknown): string => (typeof value === 'string' ? value : (JSON.stringify(value) ?? 'unset'));
const ofNumber =
  (format: (n: number) => string) =>
  (value: unknown): string =>
    typeof value === 'number' ? format(value) : asJson(value);

/** A whole number in [min, max]. */
export function count(min = 0, max = 10_000_000): SettingValue<number> {
  const accepts = `a whole number from ${min} to ${max}`;
  return {
    unit: 'count',
    accepts,
    schema: z
      .number({ error: `must be ${accepts}` })
      .int(`must be ${accepts}`)
      .min(min, `must be ${accepts}`)
      .max(max, `must be ${accepts}`),
    fromText: asNumberText(INTEGER),
    show: asJson,
  };
}

/** A number above 0 (fractions allowed), e.g. requests per minute. */
export function positiveNumber(): SettingValue<number> {
  const accepts = 'a number above 0';
  return {
    unit: 'number',
    accepts,
    schema: z
      .number({ error: `must be ${accepts}` })
      .positive(`must be ${accepts}`)
      .finite(`must be ${accepts}`),
    fromText: asNumberText(DECIMAL),
    show: asJson,
  };
}

/** A duration (`30s`, `10m`, `1h`, or milliseconds), at most `max` ms; the parsed value is milliseconds. */
export function duration(max = MAX_DURATION_MS): SettingValue<number> {
  const accepts = `a duration such as 30s, 10m, 1h or a number of milliseconds, at most ${showDuration(max)}`;
  const schema = z.union([z.number(), z.string()], { error: `must be ${accepts}` }).transform((v, ctx) => {
    const ms = parseDuration(v);
    if (ms === null || ms > max) {
      ctx.addIssue({ code: 'custom', message: `must be ${accepts}` });
      return z.NEVER;
    }
    return ms;
  });
  return { unit: 'duration', accepts, schema, fromText: sameText, show: ofNumber(showDuration) };
}

/** A size (`10MiB`, `512KiB`, or bytes), at least `min` bytes; the parsed value is bytes. */
export function bytes(min = 1): SettingValue<number> {
  const accepts = `a size such as 10MiB, 512KiB or a number of bytes, at least ${showSize(min)}`;
  const schema = z.union([z.number(), z.string()], { error: `must be ${accepts}` }).transform((v, ctx) => {
    const size = parseSize(v);
    if (size === null || size < min || !Number.isSafeInteger(size)) {
      ctx.addIssue({ code: 'custom', message: `must be ${accepts}` });
      return z.NEVER;
    }
    return size;
  });
  return { unit: 'bytes', accepts, schema, fromText: sameText, show: ofNumber(showSize) };
}

/** true or false (as text: `true`, `false`, `1`, `0`). */
export function flag(): SettingValue<boolean> {
  const accepts = 'true or false';
  const fromText = (text: string): unknown => ({ true: true, '1': true, false: false, '0': false })[text.trim().toLowerCase()] ?? text;
  return { unit: 'boolean', accepts, schema: z.boolean({ error: `must be ${accepts}` }), fromText, show: asJson };
}

/** One of a closed set of words. */
export function choice<const T extends readonly [string, ...string[]]>(options: T): SettingValue<T[number]> {
  const accepts = `one of ${options.join(', ')}`;
  return { unit: 'choice', accepts, schema: z.enum(options, { error: `must be ${accepts}` }), fromText: sameText, show: asJson };
}

/** Text of at least `min` characters; with `pattern`, text it matches (`what` says what it accepts). */
export function text(min = 1, pattern?: { regex: RegExp; what: string }): SettingValue<string> {
  const accepts = pattern ? pattern.what : min > 1 ? `text of at least ${min} characters` : min === 1 ? 'non-empty text' : 'text';
  const schema = z.string({ error: `must be ${accepts}` }).min(min, `must be ${accepts}`);
  return { unit: 'text', accepts, schema: pattern ? schema.regex(pattern.regex, `must be ${accepts}`) : schema, fromText: sameText, show: asJson };
}

/** A list of non-empty strings; as text, comma-separated or a JSON array. */
export function textList(item: z.ZodType<string> = z.string().min(1), what = 'names'): SettingValue<string[]> {
  const accepts = `a list of ${what} (a JSON array, or comma-separated as text)`;
  const fromText = (value: string): unknown =>
    value.trim().startsWith('[')
      ? parseJsonText(value)
      : value
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
  return {
    unit: 'list',
    accepts,
    schema: z.array(item, { error: `must be ${accepts}` }),
    fromText,
    show: (v) => (Array.isArray(v) && v.length ? v.join(', ') : asJson(v)),
  };
}

/** Any JSON value its schema accepts; as text, JSON. */
export function json<T>(schema: z.ZodType<T>, accepts: string, show: (value: unknown) => string = asJson): SettingValue<T> {
  return { unit: 'json', accepts, schema, fromText: parseJsonText, show };
}

function parseJsonText(value: string): unknown {
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return value;
  }
}
