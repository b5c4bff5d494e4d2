import { EXECUTION_LOG_TYPES, type ExecutionLogEntry, type ExecutionLogType } from './execution-log';

const TYPES: ReadonlySet<string> = new Set(EXECUTION_LOG_TYPES);

/** Checks a stored entry's shape (a JSONL line, a SQLite row); throws naming the bad field. */
export function parseLogEntry(value: unknown): ExecutionLogEntry {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error('not an object');
  const v = value as Record<string, unknown>;
  for (const field of ['runId', 'status', 'actor'] as const) if (typeof v[field] !== 'string') throw new Error(`${field} is not a string`);
  if (typeof v.type !== 'string' || !TYPES.has(v.type)) throw new Error(`type ${JSON.stringify(v.type)} is not an execution log type`);
  if (typeof v.at !== 'number') throw new Error('at is not a number');
  const entry: ExecutionLogEntry = { runId: v.runId as string, type: v.type as ExecutionLogType, status: v.status as string, actor: v.actor as string, at: v.at };
  if (v.data !== undefined) entry.data = v.data;
  return entry;
}

/** One JSONL record: the entry as JSON and a newline. */
export function logLine(entry: ExecutionLogEntry): string {
  return `${JSON.stringify(entry)}\n`;
}
