import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import type { StoredWorkflow } from '../../../shared/api/workflows.schema';
import { WorkflowDefinition } from '../../../shared/workflow/definition.schema';
import { keptVersions, type SaveOptions, type VersionEntry } from '../definition-store';
import { writeFileAtomic } from './atomic-write';
import { isVersionName } from './file-names';

/**
 * What `current.json` and `history/<version>.json` hold. `seq` orders the history (clocks may repeat a
 * time); files written before it existed read as 0. The session is the folder's name, not a field, so
 * renaming a session is one folder rename.
 */
const FileRecord = z.object({
  definition: WorkflowDefinition,
  version: z.string(),
  savedAt: z.number(),
  note: z.string().optional(),
  seq: z.number().int().nonnegative().default(0),
});
type FileRecord = z.infer<typeof FileRecord>;

const CURRENT = 'current.json';
const HISTORY = 'history';

/** One workflow's folder: `current.json` and `history/<version>.json`. Callers serialise writes. */
export class WorkflowFolder {
  constructor(readonly path: string) {}

  current(): Promise<FileRecord | null> {
    return readRecord(join(this.path, CURRENT));
  }

  async version(version: string): Promise<FileRecord | null> {
    return isVersionName(version) ? readRecord(join(this.path, HISTORY, `${version}.json`)) : null;
  }

  /** Every history record, newest first. */
  async history(): Promise<FileRecord[]> {
    let names: string[];
    try {
      names = await readdir(join(this.path, HISTORY));
    } catch (error) {
      if (isMissing(error)) return [];
      throw error;
    }
    const versions = names.filter((n) => n.endsWith('.json') && isVersionName(n.slice(0, -5)));
    const records = await Promise.all(versions.map((n) => readRecord(join(this.path, HISTORY, n))));
    return records.filter((r): r is FileRecord => r !== null).sort(newestFirst);
  }

  /**
   * Writes the definition as current. History first: if the process dies between the writes,
   * current.json still names a complete version. Retention deletes the oldest files last.
   */
  async save(definition: WorkflowDefinition, options: SaveOptions): Promise<{ changed: boolean }> {
    if (!isVersionName(options.version)) throw new Error(`version "${options.version}" is not a content hash`);
    const current = await this.current();
    if (current?.version === options.version) return { changed: false };
    const history = await this.history();
    const seq = Math.max(current?.seq ?? 0, ...history.map((r) => r.seq)) + 1;
    const record: FileRecord = { definition, version: options.version, savedAt: options.savedAt, seq };
    if (options.note !== undefined) record.note = options.note;
    const text = `${JSON.stringify(record, null, 2)}\n`;
    await writeFileAtomic(join(this.path, HISTORY, `${options.version}.json`), text);
    await writeFileAtomic(join(this.path, CURRENT), text);
    const older = history.filter((r) => r.version !== options.version);
    for (const dropped of older.slice(keptVersions(options) - 1)) {
      await rm(join(this.path, HISTORY, `${dropped.version}.json`), { force: true });
    }
    return { changed: true };
  }
}

export function toStored(session: string, record: FileRecord): StoredWorkflow {
  const out: StoredWorkflow = { session, definition: record.definition, version: record.version, savedAt: record.savedAt };
  if (record.note !== undefined) out.note = record.note;
  return out;
}

export function toEntry(record: FileRecord): VersionEntry {
  const out: VersionEntry = { version: record.version, savedAt: record.savedAt };
  if (record.note !== undefined) out.note = record.note;
  return out;
}

async function readRecord(path: string): Promise<FileRecord | null> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    if (isMissing(error)) return null;
    throw error;
  }
  const parsed = FileRecord.safeParse(JSON.parse(text));
  if (!parsed.success) throw new Error(`stored workflow ${path} is not valid: ${parsed.error.issues[0]?.message ?? 'unknown'}`);
  return parsed.data;
}

function newestFirst(a: FileRecord, b: FileRecord): number {
  return b.seq - a.seq || b.savedAt - a.savedAt;
}

export function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
