import { linkSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';

/** The lock file in a data folder: who holds the folder (one process at a time writes its stores). */
export const LOCK_FILE = 'yukta.lock';

/** What the lock file says about its holder. */
export const LockHolder = z.object({
  pid: z.number().int().positive(),
  /** `serve`, `mcp`, `desktop`: which program holds the folder. */
  command: z.string().min(1),
  startedAt: z.number(),
  /** Where the holder serves the API, once it listens (a client can bridge to it instead of opening the folder). */
  url: z.string().optional(),
});
export type LockHolder = z.infer<typeof LockHolder>;

/** The folder is held by another live process; `holder` says which and, when it serves, where. */
export class DataFolderInUseError extends Error {
  override readonly name = 'DataFolderInUseError';
  constructor(
    readonly dataDir: string,
    readonly holder: LockHolder,
  ) {
    super(`the data folder ${dataDir} is in use by yukta ${holder.command} (pid ${holder.pid}${holder.url ? `, serving at ${holder.url}` : ''})`);
  }
}

/** A held data folder: `update` records where it serves, `release` frees it (also done at process exit). */
export interface DataFolderLock {
  readonly path: string;
  readonly holder: LockHolder;
  update(patch: { url: string }): void;
  release(): void;
}

/** True while a process with this id exists (EPERM: it exists but belongs to another user). */
export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function readHolder(path: string): LockHolder | null {
  try {
    const parsed = LockHolder.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** Writes the file whole beside the lock, then links it into place: the lock never appears half-written. */
function tryCreate(path: string, holder: LockHolder): boolean {
  const temp = `${path}.${process.pid}.${holder.startedAt}.tmp`;
  writeFileSync(temp, JSON.stringify(holder), { mode: 0o600 });
  try {
    linkSync(temp, path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    unlinkSync(temp);
  }
}

/**
 * Takes the data folder for this process (`<data>/yukta.lock`), so two hosts never write the same stores.
 * A lock left by a process that no longer runs (killed, crashed) is taken over; a live holder — this process
 * included — makes it throw DataFolderInUseError, which names the holder and where it serves.
 */
export function lockDataFolder(dataDir: string, who: { command: string; url?: string }, isAlive: (pid: number) => boolean = processIsAlive): DataFolderLock {
  mkdirSync(dataDir, { recursive: true });
  const path = join(dataDir, LOCK_FILE);
  let holder: LockHolder = { pid: process.pid, command: who.command, startedAt: Date.now(), ...(who.url ? { url: who.url } : {}) };
  for (let attempt = 0; !tryCreate(path, holder); attempt++) {
    const current = readHolder(path);
    if (current && isAlive(current.pid)) throw new DataFolderInUseError(dataDir, current);
    if (attempt > 0) throw new Error(`cannot take the data folder lock ${path}: it keeps reappearing (another process is starting on the folder?)`);
    unlinkSync(path); // stale (its holder is gone) or unreadable: the folder is free
  }
  const ours = (): boolean => {
    const current = readHolder(path);
    return current !== null && current.pid === holder.pid && current.startedAt === holder.startedAt;
  };
  const release = (): void => {
    process.off('exit', release);
    if (ours()) unlinkSync(path);
  };
  process.on('exit', release);
  return {
    path,
    get holder() {
      return holder;
    },
    update(patch) {
      if (!ours()) return;
      holder = { ...holder, ...patch };
      const temp = `${path}.${process.pid}.update.tmp`;
      writeFileSync(temp, JSON.stringify(holder), { mode: 0o600 });
      renameSync(temp, path);
    },
    release,
  };
}
