import { EXECUTION_LOG_TYPES, type ExecutionLogEntry, type ExecutionLogType } from './execution-log';
import { logEntryName, serializeForStore, UnwritableEntryError } from './unwritable-entry-error';

const TYPES: ReadonlySet<string> = new Set(EXECUTION_LOG_TYPES);

/** Checks a stored entry's shape (a JSONL line, a SQLite row); throws naming the bad field. */
export function parseLogEntry(value: unknown): ExecutionLogEntry {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('not an object');
  const v = value as Record<string, unknown>;
  for (const field of ['runId', 'status', 'actor'] as const) if (typeof v[field] !== 'string') throw new Error(`${field} is not a string`);
  if (typeof v.type !== 'string' || !TYPES.has(v.type)) throw new Error(`type ${JSON.stringify(v.type)} is not an execution log type`);
  if (typeof v.at !== 'number') throw new Error('at is not a number');
  const entry: ExecutionLogEntry = {
    runId: v.runId as string,
    type: v.type as ExecutionLogType,
    status: v.status as string,
    actor: v.actor as string,
    at: v.at,
  };
  if (v.data !== undefined) entry.data = v.data;
  return entry;
}

/** One JSONL record: the entry as JSON and a newline. */
export function logLine(entry: ExecutionLogEntry): string {
  return `${serializeForStore(entry, logEntryName, entry)}\n`;
}

/** Deepest plain nesting copied by hand; deeper (or cyclic) data goes through `structuredClone`. */
const MAX_COPY_DEPTH = 32;

/**
 * A copy of an entry that shares nothing with it (the memory and JSONL logs keep one, so a caller changing
 * its object later changes nothing logged). Plain objects and arrays, the shape of log data, are copied by
 * hand (an order of magnitude cheaper than `structuredClone` for the small data of a node end); anything
 * else (a Date, a Map, a cycle) is left to `structuredClone`, as before.
 */
export function copyLogEntry(entry: ExecutionLogEntry): ExecutionLogEntry {
  const copy: ExecutionLogEntry = { runId: entry.runId, type: entry.type, status: entry.status, actor: entry.actor, at: entry.at };
  if (entry.data !== undefined) copy.data = copyData(entry.data);
  return copy;
}

function copyData(data: unknown): unknown {
  try {
    return copyPlain(data, 0);
  } catch (error) {
    if (error !== TOO_DEEP) throw new UnwritableEntryError('an execution log entry', error);
  }
  try {
    return structuredClone(data);
  } catch (error) {
    // Too deep for the structured clone algorithm, or a function: the append fails, nothing is kept.
    throw new UnwritableEntryError('an execution log entry', error);
  }
}

const TOO_DEEP = new Error('too deep to copy by hand');

function copyPlain(value: unknown, depth: number): unknown {
  if (value === null || typeof value !== 'object') return value;
  if (depth >= MAX_COPY_DEPTH) throw TOO_DEEP;
  if (Array.isArray(value)) {
    const out = new Array<unknown>(value.length);
    for (let i = 0; i < value.length; i++) out[i] = copyPlain(value[i], depth + 1);
    return out;
  }
  const proto = Object.getPrototypeOf(value) as unknown;
  if (proto !== Object.prototype && proto !== null) return structuredClone(value);
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) out[key] = copyPlain((value as Record<string, unknown>)[key], depth + 1);
  return out;
}
