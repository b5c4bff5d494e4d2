/** Result of reading the inspector's config text. */
export type ConfigParse = { ok: true; value: Record<string, unknown> } | { ok: false; error: string };

/** Parses config JSON; the error names the problem (JSON syntax, or not an object). */
export function parseConfigText(text: string): ConfigParse {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `Not valid JSON: ${error instanceof Error ? error.message : String(error)}. The last valid config is kept.` };
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    const what = value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
    return { ok: false, error: `Config must be a JSON object like {"key": "value"}, not ${what}.` };
  }
  return { ok: true, value: value as Record<string, unknown> };
}
