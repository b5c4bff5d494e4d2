import { access, readdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { ExecutionTimeoutSeconds } from '../../../shared/api/sessions.schema';
import type { StoredWorkflow } from '../../../shared/api/workflows.schema';
import type { WorkflowDefinition } from '../../../shared/workflow/definition.schema';
import type { DefinitionStore, RenameOutcome, SaveOptions, SessionSettings, SessionWorkflowSave, StoredSession, VersionEntry } from '../definition-store';
import { writeFileAtomic } from './atomic-write';
import { decodeName, encodeName, SESSION_FILE, trashName } from './file-names';
import { isMissing, toEntry, toStored, WorkflowFolder } from './workflow-folder';

const SessionFile = z.object({ defaultExecutionTimeoutSeconds: ExecutionTimeoutSeconds });

/**
 * Definitions as files (DEF-01, DUR-05):
 * `<baseDir>/workflows/<session>/<workflow>/current.json` and `history/<version>.json`, plus
 * `<session>/@session.json` for a session's settings. Ids are URL-encoded, every file write is atomic.
 *
 * Writes go through one queue, so concurrent saves apply in call order and never interleave; reads do not
 * wait. Renaming or deleting a session or a workflow is one folder rename (a delete renames to a trash name
 * first, then removes it). Applying a session configuration writes workflow by workflow: a crash midway
 * leaves the workflows written so far, each one whole.
 */
export class FileDefinitionStore implements DefinitionStore {
  private readonly root: string;
  private tail: Promise<unknown> = Promise.resolve();

  constructor(baseDir: string) {
    this.root = join(baseDir, 'workflows');
  }

  async list(session?: string): Promise<StoredWorkflow[]> {
    const sessions = session === undefined ? await idFolders(this.root) : [session];
    const out: StoredWorkflow[] = [];
    for (const s of sessions) {
      for (const w of await idFolders(this.sessionPath(s))) {
        const record = await this.folder(s, w).current();
        if (record) out.push(toStored(s, record));
      }
    }
    return out;
  }

  async get(session: string, workflowId: string): Promise<StoredWorkflow | null> {
    const record = await this.folder(session, workflowId).current();
    return record ? toStored(session, record) : null;
  }

  save(session: string, definition: WorkflowDefinition, options: SaveOptions): Promise<{ changed: boolean }> {
    return this.exclusive(() => this.folder(session, definition.workflowId).save(definition, options));
  }

  async versions(session: string, workflowId: string): Promise<VersionEntry[]> {
    const folder = this.folder(session, workflowId);
    if (!(await folder.current())) return [];
    return (await folder.history()).map(toEntry);
  }

  async getVersion(session: string, workflowId: string, version: string): Promise<StoredWorkflow | null> {
    const record = await this.folder(session, workflowId).version(version);
    return record ? toStored(session, record) : null;
  }

  deleteWorkflow(session: string, workflowId: string): Promise<boolean> {
    return this.exclusive(async () => {
      const folder = this.folder(session, workflowId);
      if (!(await folder.current())) return false;
      await this.removeFolder(folder.path, this.sessionPath(session));
      return true;
    });
  }

  async listSessions(): Promise<StoredSession[]> {
    const found = await Promise.all((await idFolders(this.root)).map((s) => this.getSession(s)));
    return found.filter((s): s is StoredSession => s !== null);
  }

  async getSession(session: string): Promise<StoredSession | null> {
    const path = this.sessionPath(session);
    const settings = await readSettings(join(path, SESSION_FILE));
    let workflowCount = 0;
    for (const w of await idFolders(path)) if (await exists(join(this.folder(session, w).path, 'current.json'))) workflowCount++;
    if (!settings && workflowCount === 0) return null;
    return { session, workflowCount, settings };
  }

  putSession(session: string, settings: SessionSettings): Promise<void> {
    return this.exclusive(() => this.writeSettings(session, settings));
  }

  renameSession(from: string, to: string): Promise<RenameOutcome> {
    return this.exclusive(async () => {
      if (!(await this.getSession(from))) return 'not-found';
      if (await this.getSession(to)) return 'exists';
      // A folder left without settings or workflows (say, after its last workflow was deleted) is empty
      // as a session; clear it so the rename can take its name.
      await rm(this.sessionPath(to), { recursive: true, force: true });
      await rename(this.sessionPath(from), this.sessionPath(to));
      return 'renamed';
    });
  }

  deleteSession(session: string): Promise<boolean> {
    return this.exclusive(async () => {
      const existed = (await this.getSession(session)) !== null;
      if (await exists(this.sessionPath(session))) await this.removeFolder(this.sessionPath(session), this.root);
      return existed;
    });
  }

  applySession(session: string, settings: SessionSettings, workflows: readonly SessionWorkflowSave[]): Promise<Array<{ changed: boolean }>> {
    return this.exclusive(async () => {
      await this.writeSettings(session, settings);
      const results: Array<{ changed: boolean }> = [];
      for (const w of workflows) results.push(await this.folder(session, w.definition.workflowId).save(w.definition, w.options));
      return results;
    });
  }

  async close(): Promise<void> {
    await this.tail;
  }

  /** Runs `write` after every write queued before it; a failure does not block the ones after. */
  private exclusive<T>(write: () => Promise<T>): Promise<T> {
    const run = this.tail.then(write);
    this.tail = run.catch(() => undefined);
    return run;
  }

  private writeSettings(session: string, settings: SessionSettings): Promise<void> {
    const text = `${JSON.stringify(SessionFile.parse(settings), null, 2)}\n`;
    return writeFileAtomic(join(this.sessionPath(session), SESSION_FILE), text);
  }

  /** Renames the folder to a trash name in its parent (atomic for readers), then removes it. */
  private async removeFolder(path: string, parent: string): Promise<void> {
    const trash = join(parent, trashName());
    await rename(path, trash);
    await rm(trash, { recursive: true, force: true });
  }

  private sessionPath(session: string): string {
    return join(this.root, encodeName(session));
  }

  private folder(session: string, workflowId: string): WorkflowFolder {
    return new WorkflowFolder(join(this.sessionPath(session), encodeName(workflowId)));
  }
}

/** Ids of the sub-folders we wrote (temp and trash entries are skipped), sorted. */
async function idFolders(path: string): Promise<string[]> {
  try {
    const entries = await readdir(path, { withFileTypes: true });
    return entries
      .filter((e) => e.isDirectory())
      .map((e) => decodeName(e.name))
      .filter((id): id is string => id !== null)
      .sort();
  } catch (error) {
    if (isMissing(error)) return [];
    throw error;
  }
}

async function readSettings(path: string): Promise<SessionSettings | null> {
  try {
    return SessionFile.parse(JSON.parse(await readFile(path, 'utf8')));
  } catch (error) {
    if (isMissing(error)) return null;
    throw new Error(`session settings ${path} are not valid: ${(error as Error).message}`, { cause: error });
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}
