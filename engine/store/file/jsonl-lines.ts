import { LogCorruptionError } from '../store-errors';

/** What reading a JSONL file found: the complete records, where they end, and a torn tail if any. */
export interface JsonlRead<T> {
  records: T[];
  /** Bytes of complete lines: the file is cut back to this before appending. */
  validBytes: number;
  /** Bytes after the last complete line (a write cut short by a crash), skipped. */
  tornBytes: number;
}

const NEWLINE = 0x0a;

/**
 * Reads a JSONL file (DUR-01). A record is a line *with* its newline: whatever follows the last newline is a
 * torn write and is skipped (the caller warns). A line before that which is not valid JSON, or which `parse`
 * refuses, is corruption: it throws `LogCorruptionError` with its line number, so it is never skipped
 * silently.
 */
export function readJsonl<T>(file: string, content: Buffer, parse: (value: unknown) => T): JsonlRead<T> {
  const end = content.lastIndexOf(NEWLINE) + 1;
  const records: T[] = [];
  let start = 0;
  let line = 0;
  while (start < end) {
    const stop = content.indexOf(NEWLINE, start);
    line++;
    const text = content.toString('utf8', start, stop);
    start = stop + 1;
    if (text.trim() === '') continue;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw new LogCorruptionError(file, line, (error as Error).message);
    }
    try {
      records.push(parse(value));
    } catch (error) {
      throw new LogCorruptionError(file, line, (error as Error).message);
    }
  }
  return { records, validBytes: end, tornBytes: content.length - end };
}
