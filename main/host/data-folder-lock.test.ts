import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DataFolderInUseError, LOCK_FILE, lockDataFolder } from './data-folder-lock';
import { tempDataDir } from './host-test-support';

/** The pid of a real process that has exited (and been reaped), for a lock left behind by a crash. */
function deadPid(): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', '']);
    child.on('error', reject);
    child.on('close', () => resolve(child.pid!));
  });
}

describe('EXT-04 data folder lock (one host per data folder, for yukta mcp and serve)', () => {
  it('writes who holds the folder, refuses a second holder naming it and where it serves, and frees it on release', async () => {
    const dir = await tempDataDir();
    const lock = lockDataFolder(dir, { command: 'serve' });
    lock.update({ url: 'http://127.0.0.1:4551' });
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.pid, command: 'serve', url: 'http://127.0.0.1:4551' });
    const refused = (() => {
      try {
        lockDataFolder(dir, { command: 'mcp' });
        return null;
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(DataFolderInUseError);
    expect((refused as Error).message).toBe(`the data folder ${dir} is in use by yukta serve (pid ${process.pid}, serving at http://127.0.0.1:4551)`);
    lock.release();
    expect(existsSync(join(dir, LOCK_FILE))).toBe(false);
    const again = lockDataFolder(dir, { command: 'mcp' });
    expect(again.holder).toMatchObject({ pid: process.pid, command: 'mcp' });
    again.release();
  });

  it('takes over a lock left by a process that is gone, and an unreadable lock file', async () => {
    const dir = await tempDataDir();
    writeFileSync(join(dir, LOCK_FILE), JSON.stringify({ pid: await deadPid(), command: 'serve', startedAt: 1 }));
    const lock = lockDataFolder(dir, { command: 'mcp' });
    expect(JSON.parse(readFileSync(join(dir, LOCK_FILE), 'utf8'))).toMatchObject({ pid: process.pid, command: 'mcp' });
    lock.release();
    writeFileSync(join(dir, LOCK_FILE), '{"pid":');
    const second = lockDataFolder(dir, { command: 'mcp' });
    expect(second.holder.command).toBe('mcp');
    second.release();
  });

  it('release leaves a lock that another process took over alone', async () => {
    const dir = await tempDataDir();
    const lock = lockDataFolder(dir, { command: 'serve' });
    const other = JSON.stringify({ pid: process.pid, command: 'desktop', startedAt: lock.holder.startedAt + 1 });
    writeFileSync(join(dir, LOCK_FILE), other);
    lock.release();
    expect(readFileSync(join(dir, LOCK_FILE), 'utf8')).toBe(other);
  });
});
