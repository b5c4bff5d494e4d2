import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { StoredWorkflow } from '../../../shared/api/workflows.schema';
import type { WorkflowDefinition } from '../../../shared/workflow/definition.schema';
import type { DefinitionStore, SaveOptions } from '../definition-store';
import { writeFileAtomic } from './atomic-write';

/**
 * Definitions as files (DEF-01): `<baseDir>/workflows/<session>/<workflow>/current.json` and
 * `history/<version>.json`, ids URL-encoded, every write atomic.
 */
export class FileDefinitionStore implements DefinitionStore {
  private readonly root: string;

  constructor(baseDir: string) {
    this.root = join(baseDir, 'workflows');
  }

  async list(session?: string): Promise<StoredWorkflow[]> {
    const sessions = session === undefined ? await listDirs(this.root) : [encodeURIComponent(session)];
    const out: StoredWorkflow[] = [];
    for (const s of sessions) {
      for (const w of await listDirs(join(this.root, s))) {
        const stored = await this.read(join(this.root, s, w, 'current.json'));
        if (stored) out.push(stored);
      }
    }
    return out;
  }

  async get(session: string, workflowId: string): Promise<StoredWorkflow | null> {
    return this.read(join(this.folder(session, workflowId), 'current.json'));
  }

  async save(session: string, definition: WorkflowDefinition, options: SaveOptions): Promise<{ changed: boolean }> {
    const folder = this.folder(session, definition.workflowId);
    const current = await this.read(join(folder, 'current.json'));
    if (current?.version === options.version) return { changed: false };
    const stored: StoredWorkflow = { session, definition, version: options.version, savedAt: options.savedAt };
    if (options.note !== undefined) stored.note = options.note;
    const text = `${JSON.stringify(stored, null, 2)}\n`;
    // History first: if the process dies between the two writes, current.json still names a complete version.
    await writeFileAtomic(join(folder, 'history', `${options.version}.json`), text);
    await writeFileAtomic(join(folder, 'current.json'), text);
    return { changed: true };
  }

  private folder(session: string, workflowId: string): string {
    return join(this.root, encodeURIComponent(session), encodeURIComponent(workflowId));
  }

  private async read(path: string): Promise<StoredWorkflow | null> {
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
    const parsed = StoredWorkflow.safeParse(JSON.parse(text));
    if (!parsed.success) throw new Error(`stored workflow ${path} is not valid: ${parsed.error.issues[0]?.message ?? 'unknown'}`);
    return parsed.data;
  }
}

async function listDirs(path: string): Promise<string[]> {
  try {
    const entries = await readdir(path, { withFileTypes: true });
    return entries.filter((e) => e.isDirectory()).map((e) => e.name).sort();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}
