import { constants } from 'node:fs';
import { mkdir, open, readFile, rename, rm, stat, type FileHandle } from 'node:fs/promises';

/** An open file the JSONL writer appends to. */
export interface AppendFile {
  /** Appends the whole buffer (the file is opened for append); returns the bytes written. */
  append(data: Buffer): Promise<number>;
  /** Forces the written data to the disk. */
  sync(): Promise<void>;
  /** Cuts the file to `length` bytes (after a failed write, back to its last complete line). */
  truncate(length: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * The file-system seam of the JSONL stores (DUR-01): production uses `node:fs/promises` on the libuv
 * thread pool (the event loop never waits for the disk); tests inject failures here (ENOSPC, torn writes).
 */
export interface LogFileSystem {
  openAppend(path: string): Promise<AppendFile>;
  /** Writes a whole file and forces it to disk (the compacted log before its rename). */
  writeSynced(path: string, data: Buffer): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  /** Forces a folder's entries (a rename) to disk. */
  syncDir(path: string): Promise<void>;
  readFile(path: string): Promise<Buffer | null>;
  size(path: string): Promise<number>;
  truncate(path: string, length: number): Promise<void>;
  mkdir(path: string): Promise<void>;
  remove(path: string): Promise<void>;
}

class NodeAppendFile implements AppendFile {
  constructor(private readonly handle: FileHandle) {}

  async append(data: Buffer): Promise<number> {
    let written = 0;
    while (written < data.length) {
      const { bytesWritten } = await this.handle.write(data, written, data.length - written, null);
      written += bytesWritten;
    }
    return written;
  }

  sync(): Promise<void> {
    return this.handle.datasync();
  }

  truncate(length: number): Promise<void> {
    return this.handle.truncate(length);
  }

  close(): Promise<void> {
    return this.handle.close();
  }
}

/** The real file system. */
export const NODE_LOG_FILE_SYSTEM: LogFileSystem = {
  async openAppend(path) {
    return new NodeAppendFile(await open(path, constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT, 0o600));
  },
  async writeSynced(path, data) {
    const handle = await open(path, 'w', 0o600);
    try {
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
  },
  rename: (from, to) => rename(from, to),
  async syncDir(path) {
    const handle = await open(path, 'r');
    try {
      await handle.sync();
    } catch {
      // Some file systems refuse fsync on a folder; the rename is still atomic there.
    } finally {
      await handle.close();
    }
  },
  async readFile(path) {
    try {
      return await readFile(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
      throw error;
    }
  },
  async size(path) {
    try {
      return (await stat(path)).size;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw error;
    }
  },
  async truncate(path, length) {
    const handle = await open(path, 'r+');
    try {
      await handle.truncate(length);
      await handle.sync();
    } finally {
      await handle.close();
    }
  },
  mkdir: async (path) => void (await mkdir(path, { recursive: true })),
  remove: (path) => rm(path, { force: true }),
};
